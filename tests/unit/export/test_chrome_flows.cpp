// Flow links in the Chrome trace export: each is an "s" / "f" pair (cat "flow", "bp":"e" on the
// "f") at its two events' starts, and importing the export gives the same links back. The
// export names its slices' categories "nvtx", which the importer knows from PyTorch traces, so
// the re-import goes through the Kineto path; flows other than "ac2g" bind the same way there.
#include "../support/flow_lines.h"
#include "mini_json.h"
#include "model/export/exporters.h"
#include "model/import/importers.h"
#include "tests/test_paths.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

using namespace sightline;

namespace {

// A generic trace (no PyTorch markers) with two flows: one between threads, one chained.
constexpr const char* kFlows = R"JSON({"traceEvents":[
{"ph":"X","cat":"compute","name":"outer","pid":1,"tid":1,"ts":0,"dur":100},
{"ph":"X","cat":"compute","name":"inner","pid":1,"tid":1,"ts":10,"dur":20},
{"ph":"X","cat":"io","name":"consume","pid":1,"tid":2,"ts":20,"dur":10},
{"ph":"X","cat":"io","name":"late","pid":1,"tid":2,"ts":60.5,"dur":10},
{"ph":"X","cat":"compute","name":"tail","pid":1,"tid":1,"ts":80,"dur":5},
{"ph":"s","cat":"handoff","name":"batch","id":7,"pid":1,"tid":1,"ts":15},
{"ph":"f","cat":"handoff","name":"batch","id":7,"pid":1,"tid":2,"ts":25,"bp":"e"},
{"ph":"s","cat":"chain","name":"job","id":1,"pid":1,"tid":1,"ts":50},
{"ph":"t","cat":"chain","name":"job","id":1,"pid":1,"tid":2,"ts":62},
{"ph":"f","cat":"chain","name":"job","id":1,"pid":1,"tid":1,"ts":75}
]}
)JSON";

Trace importFile(const std::filesystem::path& path)
{
    Result<Trace> imported = importChromeTrace(path.string());
    INFO(imported.error());
    REQUIRE(imported);
    return std::move(imported.value());
}

// "from -> to (name)" of every link, sorted (track indexes may differ between imports).
std::vector<std::string> linkLines(const Trace& trace)
{
    std::vector<std::string> lines = test::flowLines(trace);
    std::sort(lines.begin(), lines.end());
    return lines;
}

std::string readText(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace

TEST_CASE("Flow links export as s/f pairs and import back as the same links", "[export][json]")
{
    const auto dir = test::scratchDir("chrome-flows");
    {
        std::ofstream(dir / "source.json") << kFlows;
    }
    const Trace source = importFile(dir / "source.json");
    // "job" runs outer -> late -> tail: its "t" at 62 lies in "late", and its "f" at 75 (no
    // "bp") binds to the next slice of its thread, "tail" at 80.
    const std::vector<std::string> expected {"inner 10000 -> consume 20000 (batch)",
        "late 60500 -> tail 80000 (job)", "outer 0 -> late 60500 (job)"};
    REQUIRE(linkLines(source) == expected);

    const auto exported = dir / "exported.json";
    const Status written = exportChromeTrace(source, exported.string(), {});
    INFO(written.error());
    REQUIRE(written);
    std::string parseError;
    const std::optional<test::JsonValue> document = test::parseJson(readText(exported), parseError);
    INFO(parseError);
    REQUIRE(document);
    size_t starts = 0, finishes = 0;
    for (const test::JsonValue& e : document->find("traceEvents")->items) {
        if (e.str("cat") != "flow") continue;
        starts += e.str("ph") == "s";
        finishes += e.str("ph") == "f" && e.str("bp") == "e";
    }
    CHECK(starts == 3);
    CHECK(finishes == 3);
    CHECK(readText(exported).find("\"cat\":\"nvtx\"") != std::string::npos); // hence the Kineto path

    const Trace again = importFile(exported);
    CHECK(linkLines(again) == expected);
}
