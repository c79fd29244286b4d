// A synthetic CUDA recording converted into a report is byte for byte the golden one.
#include "../support/golden_file.h"
#include "collector/convert/assemble/spool_merge.h"
#include "collector/launcher/profile_options.h"
#include "model/format/report_io.h"
#include "spool_builder.h"
#include "test_paths.h"

#include <catch2/catch.hpp>

using namespace sightline;

TEST_CASE("a converted spool is byte-identical to the golden report")
{
    const std::filesystem::path dir = test::scratchDir("golden_conversion");
    std::filesystem::create_directories(dir / "spool");
    test::cudaRecording(4242, 20000).writeTo((dir / "spool" / "4242.spool").string());
    collector::SessionInfo session;
    session.spoolDir = (dir / "spool").string();
    session.start = {0, 0, 1'700'000'000'000'000'000};
    session.end = {0, 60'000'000, 0};
    session.targetPid = 4242;
    session.command = {"./train"};
    session.options = collector::ProfileOptions().conversion(); // the defaults of `profile`
    session.queryHost = false;
    const std::filesystem::path out = dir / "converted.rep";
    REQUIRE(writeReport(collector::mergeSpools(session).trace, out.string()).ok());
    const std::string golden = test::fileBytes(test::goldenFile("converted_20k.rep"));
    REQUIRE(golden.size() > 1000);
    CHECK(test::fileBytes(out) == golden);
}
