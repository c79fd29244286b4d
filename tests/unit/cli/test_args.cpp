// The CLI's one argument scanner (app/cli/cli_args.h) and `sightline profile`'s options read
// with it (app/cli/profile_args.h).
#include "app/cli/cli_args.h"
#ifdef SIGHTLINE_WITH_COLLECTOR
#include "app/cli/profile_args.h"
#endif

#include <catch2/catch.hpp>

using namespace sightline;
using namespace sightline::cli;

namespace {

constexpr OptionSpec kSpecs[]
    = {{"report", "r", true}, {"format", "f", true}, {"force", "", false}, {"help", "h", false}};

Result<Args> scan(const std::vector<std::string>& arguments, OptionsEnd end = OptionsEnd::AtDoubleDash)
{
    return Args::scan(arguments, kSpecs, end);
}

} // namespace

TEST_CASE("every spelling of an option gives its value")
{
    for (const std::vector<std::string>& spelling : std::vector<std::vector<std::string>> {
             {"--report=a,b"}, {"--report", "a,b"}, {"-r", "a,b"}, {"-ra,b"}, {"-r=a,b"}}) {
        const auto args = scan(spelling);
        REQUIRE(args);
        CHECK(args->value("report") == "a,b");
        CHECK(args->positional().empty());
    }
    const auto empty = scan({"--format="});
    REQUIRE(empty);
    CHECK(empty->value("format") == ""); // given, and empty: the command decides
    CHECK_FALSE(empty->value("report"));
}

TEST_CASE("flags take no value but true or false, and the last one given counts")
{
    CHECK(scan({"--force"})->flag("force"));
    CHECK_FALSE(scan({"--force=false"})->flag("force"));
    CHECK(scan({"--force=no", "--force=yes"})->flag("force"));
    CHECK_FALSE(scan({"file"})->flag("force"));
    const auto bad = scan({"--force=maybe"});
    REQUIRE_FALSE(bad);
    CHECK(bad.error() == "the flag '--force=maybe' takes no value other than true or false");
}

TEST_CASE("positional arguments mix with options until --, or end them when asked")
{
    const auto mixed = scan({"a.rep", "-f", "csv", "b.rep", "--", "--report", "-h"});
    REQUIRE(mixed);
    CHECK(mixed->value("format") == "csv");
    CHECK(mixed->positional() == std::vector<std::string> {"a.rep", "b.rep", "--report", "-h"});
    CHECK_FALSE(mixed->flag("help"));

    const auto command
        = scan({"-f", "csv", "python", "train.py", "-h", "--lr=3"}, OptionsEnd::AtFirstPositional);
    REQUIRE(command);
    CHECK(command->positional() == std::vector<std::string> {"python", "train.py", "-h", "--lr=3"});
    CHECK_FALSE(command->flag("help"));

    CHECK(scan({"-"})->positional() == std::vector<std::string> {"-"}); // "-" is a file name (stdin)
}

TEST_CASE("an unknown option or a missing value is one sentence naming the argument")
{
    CHECK(scan({"--bogus"}).error() == "unknown option '--bogus'");
    CHECK(scan({"-x", "file"}).error() == "unknown option '-x'");
    CHECK(scan({"--reports=a"}).error() == "unknown option '--reports=a'");
    CHECK(scan({"file", "-r"}).error() == "the option '-r' needs a value");
}

#ifdef SIGHTLINE_WITH_COLLECTOR
TEST_CASE("profile options follow nsys profile's names and forms")
{
    using collector::ProfileOptions;
    auto parsed
        = parseProfileArgs({"-t", "nvtx,osrt", "--osrt-threshold=5000", "-o", "run%p", "-f", "--stats", "-e",
            "A=1,B=x,y", "--env-var=C=3", "--show-output", "false", "-q", "python", "train.py", "--lr", "3"});
    REQUIRE(parsed);
    const ProfileOptions& o = parsed.value();
    CHECK((!o.traceCuda && o.traceNvtx && o.traceOsrt));
    CHECK(o.traceList() == "nvtx,osrt");
    CHECK(o.osrtThresholdNs == 5000);
    CHECK(o.output == "run%p");
    CHECK((o.forceOverwrite && o.stats && !o.showOutput && o.quiet));
    CHECK(o.environment
        == std::vector<std::pair<std::string, std::string>> {{"A", "1"}, {"B", "x,y"}, {"C", "3"}});
    CHECK(o.command == std::vector<std::string> {"python", "train.py", "--lr", "3"});

    auto capture = parseProfileArgs({"-c", "nvtx", "--nvtx-capture=step@my@domain", "-tcuda", "-y", "1.5",
        "-d", "2", "--stats=false", "--", "-weird-program"});
    REQUIRE(capture);
    CHECK(capture->capture.mode == collector::CaptureMode::Nvtx);
    CHECK(capture->capture.nvtxRange == "step@my");
    CHECK(capture->capture.nvtxDomain == "domain");
    CHECK(capture->traceNvtx); // an NVTX capture range needs NVTX tracing
    CHECK(*capture->capture.delay == 1'500'000'000);
    CHECK(*capture->capture.duration == 2'000'000'000);
    CHECK_FALSE(capture->stats);
    CHECK(capture->command == std::vector<std::string> {"-weird-program"});

    const auto errorOf
        = [](std::vector<std::string> arguments) { return parseProfileArgs(arguments).error(); };
    CHECK(errorOf({"-t", "cuda,gpu", "ls"})
        == "unknown --trace value 'gpu'; use cuda, nvtx, osrt (comma-separated) or none");
    CHECK(errorOf({"--bogus", "ls"}) == "unknown option '--bogus'");
    CHECK(errorOf({"-t", "cuda"}).starts_with("no program to profile"));
    CHECK(errorOf({"-c", "nvtx", "ls"}) == "--capture-range=nvtx needs --nvtx-capture=RANGE[@DOMAIN]");
    CHECK(errorOf({"-d", "0", "ls"}).starts_with("--duration does not accept '0'"));
    CHECK(errorOf({"-d", "1e300", "ls"}).starts_with("--duration does not accept '1e300'"));
    CHECK(errorOf({"--show-output=maybe", "ls"}).starts_with("--show-output does not accept 'maybe'"));
    CHECK(errorOf({"-o"}) == "the option '-o' needs a value");
    CHECK(parseProfileArgs({"-t", "none", "ls"})->traceList() == "none");
    CHECK(parseProfileArgs({"--help"})->help);
}

TEST_CASE("CPU sampling options: -s, --sampling-frequency, --cpuctxsw, --backtrace, --cudabacktrace")
{
    const collector::ProfileOptions defaults = parseProfileArgs({"ls"}).value();
    CHECK((defaults.cpu.sample && defaults.cpu.contextSwitches && defaults.cpu.frequency == 1000));
    CHECK(defaults.cpu.backtrace == collector::BacktraceMethod::FramePointers);
    CHECK_FALSE(defaults.cudaBacktrace.any());

    auto parsed = parseProfileArgs({"-s", "none", "--sampling-frequency=4000", "--cpuctxsw=none", "-b",
        "dwarf", "--cudabacktrace=sync,memory:500000", "ls"});
    REQUIRE(parsed);
    CHECK((!parsed->cpu.sample && !parsed->cpu.contextSwitches && parsed->cpu.frequency == 4000));
    CHECK(parsed->cpu.backtrace == collector::BacktraceMethod::Dwarf);
    CHECK((parsed->cudaBacktrace.sync && parsed->cudaBacktrace.memory && !parsed->cudaBacktrace.kernel));
    CHECK(parsed->cudaBacktrace.thresholdNs == 500000);
    CHECK(parseProfileArgs({"--cudabacktrace=all", "ls"})->cudaBacktrace.kernel);

    const auto errorOf
        = [](std::vector<std::string> arguments) { return parseProfileArgs(arguments).error(); };
    CHECK(
        errorOf({"--sampling-frequency=50", "ls"}).starts_with("--sampling-frequency does not accept '50'"));
    CHECK(errorOf({"-s", "system-wide", "ls"}).starts_with("--sample does not accept 'system-wide'"));
    CHECK(errorOf({"--backtrace=lbr", "ls"}).starts_with("--backtrace does not accept 'lbr'"));
    CHECK(errorOf({"--cudabacktrace=sync:soon", "ls"})
              .starts_with("--cudabacktrace does not accept 'sync:soon'"));
    CHECK(errorOf({"--cudabacktrace=graphs", "ls"}).starts_with("--cudabacktrace does not accept 'graphs'"));
}
#endif
