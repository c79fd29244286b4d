// `sightline profile` prints live progress while the target runs when asked to
// (SIGHTLINE_PROGRESS_INTERVAL, set by the GUI's Profile dialog), and keeps that variable out
// of the target's environment.
#include "../../test_paths.h"
#include "../support/run_command.h"
#include "collector_test_support.h"

#include <catch2/catch.hpp>
#include <regex>

using namespace sightline::test;

TEST_CASE("live progress lines count the events recorded so far")
{
    const auto dir = scratchDir("live_progress");
    const std::string report = (dir / "live.rep").string();
    // Three bursts of NVTX ranges half a second apart; the target also prints its environment.
    const std::string target = "for i in 1 2 3; do " + shellQuote(COLLECTOR_TARGET) + " nvtx-osrt "
        + shellQuote(dir.string()) + " > /dev/null; sleep 0.5; done; env";
    const auto run = runCommand("SIGHTLINE_PROGRESS_INTERVAL=0.3 " + profileCommand() + " -t nvtx,osrt -o "
        + shellQuote(report) + " -- bash -c " + shellQuote(target));
    REQUIRE(run.exitCode == 0);
    CHECK(run.out.find("SIGHTLINE_PROGRESS_INTERVAL") == std::string::npos);

    const std::regex line(R"(Collecting data: ([0-9.]+) s, ([0-9]+) events so far)");
    std::vector<unsigned long long> counts;
    for (std::sregex_iterator it(run.err.begin(), run.err.end(), line), end; it != end; ++it)
        counts.push_back(std::stoull((*it)[2]));
    REQUIRE(counts.size() >= 3);
    CHECK(std::is_sorted(counts.begin(), counts.end()));
    CHECK(counts.back() > 0);
    CHECK_THAT(run.err, Catch::Contains("Generated: " + report));
}
