// Counter ("C") events of a generic Chrome trace: one series per process, counter name and arg
// key, named as Perfetto names them, a step function on the counter's own timeline, stored in
// a report with their process and read back equal.
#include "../../test_paths.h"
#include "import_support.h"
#include "model/format/report_io.h"
#include "model/format/report_outline.h"
#include "model/import/importers.h"

#include <catch2/catch.hpp>
#include <cmath>

using namespace sightline;
using namespace sightline::test;

namespace {

// Process "server" (a string pid) records "mem" with two keys, out of time order, twice at 30 µs
// (the second write wins, "free" written as text); process 7 records "load" (one key; the first
// sample names a thread, which a process counter ignores) and one sample without a number.
constexpr const char* kCounters = R"JSON({"traceEvents":[
{"ph":"M","name":"process_name","pid":"server","args":{"name":"inference server"}},
{"ph":"M","name":"process_name","pid":7,"args":{"name":"trainer"}},
{"ph":"X","cat":"c","name":"step","pid":7,"tid":8,"ts":0,"dur":100},
{"ph":"C","name":"mem","pid":"server","ts":10,"args":{"used":100,"free":900}},
{"ph":"C","name":"mem","pid":"server","ts":30,"args":{"used":250}},
{"ph":"C","name":"mem","pid":"server","ts":30,"args":{"used":300,"free":"700"}},
{"ph":"C","name":"mem","pid":"server","ts":20,"args":{"free":800}},
{"ph":"C","name":"load","pid":7,"tid":8,"ts":5,"args":{"value":0.25}},
{"ph":"C","name":"load","pid":7,"ts":60,"args":{"value":1.5}},
{"ph":"C","name":"load","pid":7,"ts":80,"args":{"value":"n/a"}},
{"ph":"C","name":"queue","ts":90,"args":{"depth":1}}
]})JSON";

Trace importText(const std::filesystem::path& dir, const std::string& text)
{
    const auto path = dir / "trace.json";
    writeFile(path, text);
    Result<Trace> imported = importChromeTrace(path.string());
    INFO(imported.error());
    REQUIRE(imported);
    return std::move(imported.value());
}

const CounterSeries& seriesNamed(const Trace& trace, const std::string& name)
{
    for (const CounterSeries& s : trace.counterSeries)
        if (s.name == name) return s;
    FAIL("no counter series named " << name);
    return trace.counterSeries.front();
}

Pid pidNamed(const Trace& trace, const std::string& name)
{
    for (const Process& p : trace.processes)
        if (p.name == name) return p.pid;
    FAIL("no process named " << name);
    return {};
}

bool hasDiagnostic(const Trace& trace, const std::string& part)
{
    for (const Diagnostic& d : trace.diagnostics)
        if (d.text.find(part) != std::string::npos) return true;
    return false;
}

} // namespace

TEST_CASE("Generic counter events become step-function series of their process")
{
    const Trace trace = importText(scratchDir("generic-counters"), kCounters);
    REQUIRE(trace.counterSeries.size() == 3);
    const Pid server = pidNamed(trace, "inference server");
    const Pid trainer = pidNamed(trace, "trainer");
    CHECK(trainer.value == 7);
    CHECK(server != trainer);

    const CounterSeries& used = seriesNamed(trace, "mem used");
    const CounterSeries& free = seriesNamed(trace, "mem free");
    const CounterSeries& load = seriesNamed(trace, "load");
    for (const CounterSeries* s : {&used, &free, &load})
        CHECK(s->source == CounterSource::Process);
    CHECK(used.pid == server);
    CHECK(free.pid == server);
    CHECK(load.pid == trainer);

    // "mem": one timeline for both keys, in time order; a key not written keeps its value.
    CHECK(used.timeline == free.timeline);
    const CounterTimeline& mem = trace.timelineOf(used);
    CHECK(mem.starts == std::vector<Timestamp> {10'000, 20'000, 30'000});
    CHECK(mem.end == 100'000); // the end of the trace
    CHECK(used.values == std::vector<double> {100, 100, 300});
    CHECK(free.values == std::vector<double> {900, 800, 700});
    CHECK(used.resolution == 1);

    CHECK(load.timeline != used.timeline);
    const CounterTimeline& loadTimes = trace.timelineOf(load);
    CHECK(loadTimes.starts == std::vector<Timestamp> {5'000, 60'000});
    REQUIRE(load.values.size() == 2);
    CHECK(load.values[0] == Approx(0.25).epsilon(1e-9));
    CHECK(load.values[1] == Approx(1.5).epsilon(1e-9));

    // The step function: the value over a range is the one set before it.
    const CounterSummary late
        = trace.counterSummary(uint32_t(&free - trace.counterSeries.data()), {25'000, 35'000});
    CHECK(late.min == 700);
    CHECK(late.max == 800);

    CHECK(hasDiagnostic(trace, "3 counter series"));
    CHECK(hasDiagnostic(trace, "1 without a timestamp or a process (skipped)"));
    CHECK(hasDiagnostic(trace, "1 \"C\" without a number in its args (skipped)"));
}

TEST_CASE("Process counters are stored in a report with their process and read back equal")
{
    const auto dir = scratchDir("generic-counters-rep");
    const Trace trace = importText(dir, kCounters);
    const auto report = dir / "trace.rep";
    REQUIRE(writeReport(trace, report.string()));
    Result<Trace> read = readReport(report.string());
    INFO(read.error());
    REQUIRE(read);
    CHECK(read->counterTimelines == trace.counterTimelines);
    CHECK(read->counterSeries == trace.counterSeries);

    Result<std::optional<ReportOutline>> outline = readReportOutline(report.string());
    REQUIRE(outline);
    REQUIRE(outline.value());
    REQUIRE(outline.value()->counters.size() == 3);
    for (const CounterOutline& counter : outline.value()->counters) {
        CHECK(counter.series.source == CounterSource::Process);
        CHECK(counter.series.pid == seriesNamed(trace, counter.series.name).pid);
    }
}

TEST_CASE("A PyTorch trace keeps skipping counter events")
{
    const Trace trace = importText(scratchDir("kineto-counters"), R"JSON({"schemaVersion": 1, "traceEvents": [
{"ph": "X", "cat": "cpu_op", "name": "aten::add", "pid": 1, "tid": 2, "ts": 5, "dur": 10},
{"ph": "C", "name": "mem", "pid": 1, "ts": 6, "args": {"used": 3}}
]})JSON");
    CHECK(trace.counterSeries.empty());
    CHECK(hasDiagnostic(trace, "\"C\" (1)"));
}
