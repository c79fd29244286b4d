// `sightline analyze` as the built binary runs it, on reports written by
// `sightline-gen --scenario` (tests/tools/generator/scenario.h): JSON that a JSON parser reads
// and that names the scenario's limit, and --fail-on's exit codes for CI gates.
#include "../../test_paths.h"
#include "../support/run_command.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

using namespace sightline::test;

namespace {

std::string binary(const char* name)
{
    return shellQuote((binDir() / name).string());
}

// Writes a scenario's report as dir/NAME.rep with sightline-gen; returns its path.
std::string generate(const std::filesystem::path& dir, const std::string& name, const std::string& arguments)
{
    const std::string path = (dir / (name + ".rep")).string();
    const CommandResult r = runCommand(binary("sightline-gen") + " " + arguments + " -o " + shellQuote(path));
    INFO(arguments << "\n" << r.err);
    REQUIRE(r.exitCode == 0);
    return path;
}

CommandResult analyze(const std::string& arguments, const std::string& report)
{
    return runCommand(binary("sightline") + " analyze " + arguments + " " + shellQuote(report));
}

// Python's strict JSON parser reads `json`; prints the first verdict's limit, then the rules
// that fired, comma-separated and sorted.
CommandResult readJson(const std::filesystem::path& dir, const std::string& json)
{
    const std::filesystem::path file = dir / "analysis.json";
    std::ofstream(file) << json;
    const std::string script = "import json, sys\n"
                               "d = json.load(open(sys.argv[1]))\n"
                               "print(d['verdicts'][0]['limit'])\n"
                               "print(','.join(sorted({f['rule'] for f in d['findings']})))\n";
    return runCommand(
        shellQuote(SIGHTLINE_PYTHON) + " -c " + shellQuote(script) + " " + shellQuote(file.string()));
}

} // namespace

TEST_CASE("sightline analyze --format json names each scenario's limit")
{
    const std::filesystem::path dir = scratchDir("cli_analyze_json");
    const std::pair<const char*, const char*> cases[] = {
        {"--scenario clean", "GPU compute bound\n\n"},
        {"--scenario compute-bound", "GPU compute bound\ncuda_api_sync\n"},
        {"--scenario sync-bound", "synchronization bound\n"},
        {"--scenario launch-bound", "CUDA API / launch bound\n"},
        {"--scenario cpu-bound", "CPU bound\n"},
        {"--scenario memory-bound", "memory-transfer bound\n"},
        // The GPU idles 600 ms while the CPU works outside CUDA calls.
        {"--scenario clean --plant sync-api,gpu-gap",
            "CPU bound\ncuda_api_sync,gpu_gaps,gpu_idle_breakdown,gpu_time_util\n"},
    };
    for (size_t c = 0; c < std::size(cases); ++c) {
        const auto& [arguments, expected] = cases[c];
        const std::string report = generate(dir, "case" + std::to_string(c), arguments);
        const CommandResult r = analyze("--format json", report);
        INFO(arguments << "\n" << r.err);
        REQUIRE(r.exitCode == 0);
        const CommandResult read = readJson(dir, r.out);
        INFO(read.err);
        REQUIRE(read.exitCode == 0);
        CHECK_THAT(read.out, Catch::StartsWith(expected));
    }
}

TEST_CASE("sightline analyze --fail-on exits 3 on a planted problem and 0 on a clean trace")
{
    const std::filesystem::path dir = scratchDir("cli_analyze_fail_on");
    const std::string clean = generate(dir, "clean", "--scenario clean");
    const std::string planted = generate(dir, "planted", "--scenario clean --plant sync-memcpy");

    CommandResult r = analyze("--fail-on warning", clean);
    INFO(r.out << r.err);
    CHECK(r.exitCode == 0);
    CHECK_THAT(r.out, Catch::Contains("GPU compute bound"));
    r = analyze("--fail-on warning", planted);
    CHECK(r.exitCode == 3);
    CHECK_THAT(r.out, Catch::Contains("cuda_memcpy_sync"));
    // No rule raises an error for a synchronous copy.
    CHECK(analyze("--fail-on error", planted).exitCode == 0);
    // Without --fail-on, findings are no failure.
    CHECK(analyze("--format csv", planted).exitCode == 0);
}

TEST_CASE("sightline-gen --scenario rejects what it cannot make, in one sentence")
{
    const std::filesystem::path dir = scratchDir("cli_gen_scenario_errors");
    const std::string out = " -o " + shellQuote((dir / "x.rep").string());
    const std::pair<const char*, const char*> cases[] = {
        {"--scenario fast", "Unknown scenario 'fast'; the scenarios are clean, compute-bound"},
        {"--scenario clean --plant gpu-gap,leak", "Unknown plant 'leak'; the plants are pageable-async"},
        {"--plant gpu-gap", "--plant adds problems to a scenario"},
        {"--scenario clean --events 1000", "--events does not apply to --scenario"},
    };
    for (const auto& [arguments, message] : cases) {
        const CommandResult r = runCommand(binary("sightline-gen") + " " + arguments + out);
        INFO(arguments);
        CHECK(r.exitCode == 2);
        CHECK_THAT(r.err, Catch::StartsWith("sightline-gen: " + std::string(message)));
        CHECK(!std::filesystem::exists(dir / "x.rep"));
    }
}
