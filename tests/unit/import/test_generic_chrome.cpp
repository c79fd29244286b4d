// The Chrome trace importer on files other producers write (Perfetto/Catapult-style tools,
// nsys2json, JAX, custom scripts): string rows, any category, "X", "B"/"E" and instants become
// NVTX-kind ranges and marks on threads named by the metadata, while a PyTorch trace (the
// Kineto markers) keeps skipping what it always skipped.
#include "../../test_paths.h"
#include "../support/flow_lines.h"
#include "import_support.h"
#include "model/import/importers.h"
#include "model/trace/event_access.h"

#include <catch2/catch.hpp>

using namespace sightline;
using namespace sightline::test;

namespace {

constexpr const char* kGeneric = R"JSON({"traceEvents":[
{"ph":"M","name":"process_name","pid":"host","args":{"name":"my app"}},
{"ph":"M","name":"thread_name","pid":"host","tid":"worker","args":{"name":"worker 1"}},
{"ph":"X","cat":"compute","name":"step","pid":"host","tid":"worker","ts":0,"dur":100},
{"ph":"B","cat":"io","name":"read","pid":"host","tid":"worker","ts":120},
{"ph":"E","cat":"io","name":"read","pid":"host","tid":"worker","ts":150},
{"ph":"i","cat":"marker","name":"tick","pid":"host","tid":"worker","ts":160,"s":"t"},
{"ph":"C","name":"queue","pid":"host","ts":10,"args":{"depth":3}},
{"ph":"C","name":"queue","pid":"host","ts":50,"args":{"depth":5}}
]}
)JSON";

Trace importText(const std::string& name, const std::string& text)
{
    const auto path = scratchDir("generic-" + name) / "trace.json";
    writeFile(path, text);
    Result<Trace> imported = importChromeTrace(path.string());
    INFO(imported.error());
    REQUIRE(imported);
    return std::move(imported.value());
}

// "name start end style" of every NVTX event of a domain, sorted by start.
std::vector<std::string> nvtxLines(const Trace& trace, std::string_view domain)
{
    std::vector<std::pair<Timestamp, std::string>> lines;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        const Track& track = trace.tracks[t];
        if (track.key.kind != TrackKind::Nvtx || trace.domainName(track.key.domain) != domain) continue;
        for (uint32_t i = 0; i < track.size(); ++i) {
            const NvtxEvent e = nvtxAt(trace, {TrackId(t), i});
            lines.emplace_back(e.start,
                std::string(trace.strings[e.name]) + " " + std::to_string(e.start) + " "
                    + std::to_string(e.end) + (e.attributes.style == NvtxStyle::Mark ? " mark" : " range"));
        }
    }
    std::sort(lines.begin(), lines.end());
    std::vector<std::string> out;
    for (auto& [start, line] : lines)
        out.push_back(std::move(line));
    return out;
}

bool hasDiagnostic(const Trace& trace, const std::string& part)
{
    for (const Diagnostic& d : trace.diagnostics)
        if (d.text.find(part) != std::string::npos) return true;
    return false;
}

} // namespace

TEST_CASE("A generic Chrome trace with string rows imports as named ranges and marks")
{
    const Trace trace = importText("perfetto", kGeneric);
    REQUIRE(trace.processes.size() == 1);
    CHECK(trace.processes[0].name == "my app");
    REQUIRE(trace.threads.size() == 1);
    CHECK(trace.threads[0].name == "worker 1");
    CHECK(trace.threads[0].pid == trace.processes[0].pid);

    CHECK(nvtxLines(trace, "compute") == std::vector<std::string> {"step 0 100000 range"});
    CHECK(nvtxLines(trace, "io") == std::vector<std::string> {"read 120000 150000 range"});
    CHECK(nvtxLines(trace, "marker") == std::vector<std::string> {"tick 160000 160000 mark"});
    CHECK(trace.eventCount() == 3);
    for (const Track& track : trace.tracks) {
        CHECK(track.key.kind == TrackKind::Nvtx);
        CHECK(track.key.pid == trace.processes[0].pid);
        CHECK(track.key.tid == trace.threads[0].tid);
    }
    CHECK(hasDiagnostic(trace, "Read as a generic Chrome trace"));
    CHECK(!hasDiagnostic(trace, "categories Sightline does not import"));
}

TEST_CASE("Generic B/E pairs nest per thread, and unbalanced ones are counted, not fatal")
{
    const Trace trace = importText("nested", R"JSON([
{"ph":"B","cat":"c","name":"outer","pid":1,"tid":"a","ts":0},
{"ph":"B","cat":"c","name":"other thread","pid":1,"tid":"b","ts":1},
{"ph":"B","cat":"c","name":"inner","pid":1,"tid":"a","ts":2},
{"ph":"E","pid":1,"tid":"a","ts":3},
{"ph":"E","pid":1,"tid":"b","ts":4},
{"ph":"E","pid":1,"tid":"a","ts":5},
{"ph":"E","pid":1,"tid":"a","ts":6},
{"ph":"B","cat":"c","name":"never ends","pid":1,"tid":"a","ts":7},
{"ph":"X","cat":"c","name":"no time","pid":1,"tid":"a","dur":1},
{"ph":"X","cat":"c","name":"late","pid":1,"tid":"b","ts":9,"dur":1}
])JSON");
    CHECK(nvtxLines(trace, "c")
        == std::vector<std::string> {"outer 0 5000 range", "other thread 1000 4000 range",
            "inner 2000 3000 range", "never ends 7000 10000 range", "late 9000 10000 range"});
    // Two string tids in one numeric process: two threads, each named by its text.
    REQUIRE(trace.threads.size() == 2);
    CHECK(trace.threads[0].tid != trace.threads[1].tid);
    for (const Thread& t : trace.threads) {
        CHECK(t.pid.value == 1);
        CHECK((t.name == "a" || t.name == "b"));
    }
    CHECK(hasDiagnostic(trace,
        "3 events could not be placed as written: 1 without a timestamp or a process (skipped), 1 \"E\" "
        "without a \"B\" (ignored), 1 \"B\" without an \"E\" (closed at the end of the trace)."));
}

TEST_CASE("A PyTorch trace keeps skipping categories it does not know, with string tids as before")
{
    // PyTorch 1.8's Kineto: GPU rows written as "stream 7", host rows numeric, old categories.
    const Trace trace = importText("torch18", R"JSON({"schemaVersion": 1, "traceEvents": [
{"ph": "X", "cat": "Operator", "name": "aten::add", "pid": 200, "tid": 201, "ts": 5, "dur": 10},
{"ph": "X", "cat": "Kernel", "name": "add_kernel", "pid": 0, "tid": "stream 7", "ts": 20, "dur": 4,
 "args": {"device": 0, "stream": 7}},
{"ph": "X", "cat": "Trace", "name": "PyTorch Profiler (0)", "pid": "Spans", "tid": "PyTorch Profiler", "ts": 1, "dur": 40},
{"ph": "X", "cat": "my_tool", "name": "x", "pid": 200, "tid": 201, "ts": 6, "dur": 1},
{"ph": "B", "cat": "my_tool", "name": "y", "pid": 200, "tid": 201, "ts": 6},
{"name": "thread_name", "ph": "M", "pid": 0, "tid": "stream 7", "args": {"name": "stream 7"}}
]})JSON");
    CHECK(trace.eventCount(TrackKind::Kernels) == 1);
    for (const Track& track : trace.tracks)
        if (track.key.kind == TrackKind::Kernels) CHECK(track.key.stream.value == 7);
    CHECK(nvtxLines(trace, "cpu_op") == std::vector<std::string> {"aten::add 0 10000 range"});
    CHECK(nvtxLines(trace, "my_tool").empty());
    CHECK(trace.eventCount() == 2);
    CHECK(hasDiagnostic(trace, "my_tool (1)"));
    CHECK(hasDiagnostic(trace, "\"B\" (1)"));
    CHECK(!hasDiagnostic(trace, "generic"));
}

// A generic trace cut short (its writer crashed) keeps the events before the cut, as a PyTorch
// trace does, and says so; it is not refused whole.
TEST_CASE("A generic Chrome trace cut short keeps the events before the cut")
{
    std::string text = R"({"traceEvents":[)";
    for (int i = 0; i < 50; ++i)
        text += std::string(i ? "," : "") + R"({"ph":"X","cat":"c","name":"s","pid":"p","tid":"t","ts":)"
            + std::to_string(i * 10) + R"(,"dur":5})";
    const std::string cut = text.substr(0, text.size() - 20); // inside the 50th event
    const Trace trace = importText("cut", cut);
    CHECK(trace.eventCount() == 49);
    bool said = false;
    for (const Diagnostic& d : trace.diagnostics)
        said = said || d.text.find("cut short") != std::string::npos;
    CHECK(said);
}

TEST_CASE("Flow events of a generic Chrome trace link the slices Perfetto binds them to")
{
    // Thread 1 nests "inner" in "outer"; thread 2 has "consume" and, later, "late".
    const std::string text = R"JSON({"traceEvents":[
{"ph":"X","cat":"compute","name":"outer","pid":1,"tid":1,"ts":0,"dur":100},
{"ph":"X","cat":"compute","name":"inner","pid":1,"tid":1,"ts":10,"dur":20},
{"ph":"X","cat":"compute","name":"consume","pid":1,"tid":2,"ts":20,"dur":10},
{"ph":"X","cat":"compute","name":"late","pid":1,"tid":2,"ts":60,"dur":10},
{"ph":"s","cat":"handoff","name":"batch","id":7,"pid":1,"tid":1,"ts":15},
{"ph":"f","cat":"handoff","name":"batch","id":7,"pid":1,"tid":2,"ts":25,"bp":"e"},
{"ph":"s","cat":"queue","name":"job","id":7,"pid":1,"tid":1,"ts":50},
{"ph":"f","cat":"queue","name":"job","id":7,"pid":1,"tid":2,"ts":55}
]}
)JSON";
    const Trace trace = importText("flow-binding", text);
    // "s" inside "inner" binds to it, not to "outer"; "f" with bp:e binds to the slice around
    // it; "f" without bp at 55 binds to the next slice ("late" at 60). The same id in another
    // category is another flow.
    CHECK(test::flowLines(trace)
        == std::vector<std::string> {"outer 0 -> late 60000 (job)", "inner 10000 -> consume 20000 (batch)"});
    CHECK(hasDiagnostic(trace, "Linked 2 flow steps"));
    CHECK(!hasDiagnostic(trace, "phases Sightline does not import"));

    // Both ends know their partner.
    const FlowLink& batch = trace.flows[1];
    CHECK(trace.flowPartners(batch.from) == std::vector<EventRef> {batch.to});
    CHECK(trace.flowPartners(batch.to) == std::vector<EventRef> {batch.from});
}

TEST_CASE("A flow chain s -> t -> f gives one link per step, and unbound points are counted")
{
    const std::string text = R"JSON({"traceEvents":[
{"ph":"X","cat":"c","name":"a","pid":"p","tid":"t1","ts":0,"dur":10},
{"ph":"X","cat":"c","name":"b","pid":"p","tid":"t2","ts":20,"dur":10},
{"ph":"X","cat":"c","name":"c","pid":"p","tid":"t3","ts":40,"dur":10},
{"ph":"f","cat":"chain","name":"hop","id":"3","pid":"p","tid":"t3","ts":45,"bp":"e"},
{"ph":"s","cat":"chain","name":"hop","id":"3","pid":"p","tid":"t1","ts":5},
{"ph":"t","cat":"chain","name":"hop","id":"3","pid":"p","tid":"t2","ts":25},
{"ph":"s","cat":"chain","name":"lost","id":4,"pid":"p","tid":"t1","ts":15},
{"ph":"f","cat":"chain","name":"lost","id":4,"pid":"p","tid":"nobody","ts":15,"bp":"e"},
{"ph":"f","cat":"chain","name":"stray","id":5,"pid":"p","tid":"t1","ts":5,"bp":"e"},
{"ph":"s","cat":"chain","name":"anonymous","pid":"p","tid":"t1","ts":5}
]}
)JSON";
    const Trace trace = importText("flow-chain", text);
    // Points are ordered by time within a flow, whatever the file order.
    CHECK(test::flowLines(trace)
        == std::vector<std::string> {"a 0 -> b 20000 (hop)", "b 20000 -> c 40000 (hop)"});
    const std::vector<EventRef> partnersOfB = trace.flowPartners(trace.flows[0].to);
    CHECK(partnersOfB == std::vector<EventRef> {trace.flows[0].from, trace.flows[1].to});
    // Flow 4: its start (at 15, between "a" and "b") and its end (a thread with no slices)
    // bind to nothing.
    CHECK(hasDiagnostic(trace, "2 flow points bound to no slice were skipped."));
    CHECK(hasDiagnostic(trace, "1 flow steps (\"t\", \"f\") without an earlier start"));
    CHECK(hasDiagnostic(trace, "1 flow events without an id"));
}
