#include "../../test_paths.h"
#include "../support/run_command.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

using namespace sightline::test;

namespace {

std::string sightlineBin()
{
    return shellQuote((binDir() / "sightline").string());
}
std::string sample()
{
    return shellQuote(std::string(SIGHTLINE_SOURCE_DIR) + "/resources/samples/sample.rep");
}

} // namespace

TEST_CASE("sightline --version and --help")
{
    auto r = runCommand(sightlineBin() + " --version");
    CHECK(r.exitCode == 0);
    CHECK_THAT(r.out, Catch::StartsWith("sightline 0."));
    r = runCommand(sightlineBin() + " --help");
    CHECK(r.exitCode == 0);
    CHECK_THAT(r.out, Catch::Contains("info") && Catch::Contains("stats") && Catch::Contains("export"));
    for (const char* command : {"info", "stats", "export"}) {
        r = runCommand(sightlineBin() + " " + command + " --help");
        CHECK(r.exitCode == 0);
        CHECK_THAT(r.out, Catch::StartsWith("Usage: sightline " + std::string(command)));
    }
    r = runCommand(sightlineBin() + " frobnicate");
    CHECK(r.exitCode == 2);
    CHECK_THAT(r.err, Catch::Contains("unknown command 'frobnicate'"));
}

TEST_CASE("sightline info describes the bundled sample")
{
    auto r = runCommand(sightlineBin() + " info " + sample());
    REQUIRE(r.exitCode == 0);
    CHECK_THAT(r.out,
        Catch::Contains("NVIDIA H200") && Catch::Contains("CUDA kernels") && Catch::Contains("Time span"));
    CHECK(r.err.empty());
}

TEST_CASE("sightline info outlines a 1.1 report as it describes an older one opened whole")
{
    const auto dir = scratchDir("cli_info_formats");
    const std::string older = std::string(SIGHTLINE_SOURCE_DIR) + "/tests/data/captures/sync-bound.rep";
    const std::string newer = (dir / "sync-bound.rep").string();
    REQUIRE(runCommand(sightlineBin() + " import -o " + shellQuote(newer) + " " + shellQuote(older)).exitCode
        == 0);
    const auto oldInfo = runCommand(sightlineBin() + " info " + shellQuote(older));
    const auto newInfo = runCommand(sightlineBin() + " info " + shellQuote(newer));
    REQUIRE(oldInfo.exitCode == 0);
    REQUIRE(newInfo.exitCode == 0);
    // The first line names the file; every figure after it agrees.
    const auto afterFirstLine = [](const std::string& text) { return text.substr(text.find('\n')); };
    CHECK(afterFirstLine(newInfo.out) == afterFirstLine(oldInfo.out));
    CHECK_THAT(newInfo.out, Catch::Contains("Time span") && Catch::Contains("CUDA kernels"));
    CHECK_THAT(oldInfo.err, Catch::Contains("older Sightline") && Catch::Contains("sightline import"));
    CHECK(newInfo.err.empty());
}

TEST_CASE("bad input gives one sentence naming the file and a non-zero exit")
{
    const auto dir = scratchDir("cli_bad_input");
    const std::string text = (dir / "notes.txt").string();
    {
        std::ofstream(text) << "just some text\n";
    }
    for (const std::string& file : {text, (dir / "missing.rep").string()}) {
        for (const char* command : {"info", "stats"}) {
            auto r = runCommand(sightlineBin() + " " + command + " " + shellQuote(file));
            INFO(command << " " << file);
            CHECK(r.exitCode == 1);
            CHECK(r.out.empty());
            CHECK_THAT(r.err, Catch::Contains(file));
            CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        }
    }
    auto r = runCommand(sightlineBin() + " stats --report no_such_report " + sample());
    CHECK(r.exitCode != 0);
    CHECK_THAT(r.err, Catch::Contains("cuda_gpu_kern_sum") && Catch::Contains("nvtx_gpu_proj_sum"));
    r = runCommand(sightlineBin() + " stats --range 5:1 " + sample());
    CHECK(r.exitCode == 2);
}
