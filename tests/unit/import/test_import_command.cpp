// `sightline import`, called in-process (the command's source is compiled into this test).
#include "../../test_paths.h"
#include "app/cli/commands.h"
#include "generate.h"
#include "import_support.h"
#include "model/export/exporters.h"
#include "model/format/report_io.h"

#include <catch2/catch.hpp>
#include <filesystem>

using namespace sightline;
using namespace sightline::test;

TEST_CASE("sightline import converts an SQLite export and a JSON trace to reports")
{
    const auto dir = scratchDir("import-command");
    gen::GeneratorOptions options;
    options.events = 4000;
    const Trace trace = gen::generateTrace(options);
    REQUIRE(exportSqlite(trace, (dir / "run.sqlite").string()).ok());
    REQUIRE(exportChromeTrace(trace, (dir / "run.json").string()).ok());

    CHECK(cli::runImport({"--help"}) == 0);
    CHECK(cli::runImport({}) == 2);
    CHECK(cli::runImport({"a", "b"}) == 2);
    CHECK(cli::runImport({(dir / "nothing.sqlite").string()}) == 1);

    // The default output name drops .sqlite; -o names it; an existing file needs --force.
    REQUIRE(cli::runImport({(dir / "run.sqlite").string()}) == 0);
    Result<Trace> fromSqlite = readReport((dir / "run.rep").string());
    REQUIRE(fromSqlite);
    CHECK(fromSqlite->eventCount() == trace.eventCount());
    CHECK(cli::runImport({(dir / "run.json").string(), "-o", (dir / "run.rep").string()}) == 1);
    REQUIRE(cli::runImport({(dir / "run.json").string(), "-o", (dir / "run.rep").string(), "--force"}) == 0);
    Result<Trace> fromJson = readReport((dir / "run.rep").string());
    REQUIRE(fromJson);
    CHECK(fromJson->eventCount() == trace.eventCount());
    CHECK(cli::runImport({(dir / "run.rep").string(), "-o", (dir / "run.rep").string(), "--force"}) == 2);
}

TEST_CASE("sightline import converts every real trace of the shared folder")
{
    const auto dir = scratchDir("import-command-real");
    for (const auto& path : sharedTraceFiles({".sqlite", ".json.gz", ".json"})) {
        INFO(path.string());
        const std::string output = (dir / (path.filename().string() + ".rep")).string();
        REQUIRE(cli::runImport({path.string(), "-o", output}) == 0);
        Result<Trace> report = readReport(output);
        REQUIRE(report);
        CHECK(report.value().eventCount(TrackKind::Kernels) > 0);
    }
}
