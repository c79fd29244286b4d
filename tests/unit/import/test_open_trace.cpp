// Opening any trace file by its content: reports, Nsight Systems SQLite exports and Chrome
// traces are recognised whatever their names, and anything else gets one clear sentence.
#include "../../test_paths.h"
#include "generate.h"
#include "import_support.h"
#include "model/export/exporters.h"
#include "model/import/open_trace.h"

#include <catch2/catch.hpp>

using namespace sightline;
using namespace sightline::test;

TEST_CASE("openTrace picks the reader from the file's content, not its name")
{
    const auto dir = scratchDir("open-trace");
    gen::GeneratorOptions options;
    options.events = 5000;
    const Trace trace = gen::generateTrace(options);
    REQUIRE(writeReport(trace, (dir / "report.json").string()).ok()); // a .rep with a misleading name
    REQUIRE(exportSqlite(trace, (dir / "export.rep").string()).ok()); // SQLite named like a report
    REQUIRE(exportChromeTrace(trace, (dir / "trace.sqlite").string()).ok()); // JSON named like SQLite
    writeGzipFile(dir / "trace.bin", readWholeFile(dir / "trace.sqlite")); // gzip JSON, no hint at all
    writeFile(dir / "bom.txt",
        "\xEF\xBB\xBF \n[{\"ph\": \"X\", \"cat\": \"kernel\", \"name\": \"k\", \"pid\": 0, "
        "\"tid\": 7, \"ts\": 1, \"dur\": 2}]");

    CHECK(sniffTraceFile((dir / "report.json").string()) == TraceFileKind::Report);
    CHECK(sniffTraceFile((dir / "export.rep").string()) == TraceFileKind::NsysSqlite);
    CHECK(sniffTraceFile((dir / "trace.sqlite").string()) == TraceFileKind::ChromeTrace);
    CHECK(sniffTraceFile((dir / "trace.bin").string()) == TraceFileKind::ChromeTrace);
    CHECK(sniffTraceFile((dir / "bom.txt").string()) == TraceFileKind::ChromeTrace);

    for (const char* name : {"report.json", "export.rep", "trace.sqlite", "trace.bin"}) {
        INFO(name);
        Result<Trace> opened = openTrace((dir / name).string());
        INFO(opened.error());
        REQUIRE(opened);
        CHECK(opened->eventCount() == trace.eventCount());
    }
    Result<Trace> tiny = openTrace((dir / "bom.txt").string());
    REQUIRE(tiny);
    CHECK(tiny->eventCount(TrackKind::Kernels) == 1);
}

TEST_CASE("openTrace refuses what it cannot read with one sentence naming the file")
{
    const auto dir = scratchDir("open-trace-refused");
    auto error = [](const std::filesystem::path& path) {
        Result<Trace> r = openTrace(path.string());
        REQUIRE(!r);
        return r.error();
    };
    const std::string missing = (dir / "missing.rep").string();
    CHECK_THAT(error(missing), Catch::StartsWith("Cannot open '" + missing + "': "));
    CHECK(error(dir)
        == "Cannot open '" + dir.string() + "': it is a folder; give the path of a report or trace file.");
    writeFile(dir / "empty.sqlite", "");
    CHECK(error(dir / "empty.sqlite")
        == "Cannot open '" + (dir / "empty.sqlite").string()
            + "': the file is empty, so it holds no report or trace.");
    writeFile(dir / "notes.txt", "hello, world\n");
    CHECK_THAT(error(dir / "notes.txt"),
        Catch::Contains("neither a Sightline report, an Nsight Systems SQLite export"));
    writeFile(dir / "run.nsys-rep", std::string("\x00\x01\x02\x03 binary", 11));
    CHECK_THAT(error(dir / "run.nsys-rep"), Catch::Contains("nsys export --type sqlite"));
}
