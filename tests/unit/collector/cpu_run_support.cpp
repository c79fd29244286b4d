#include "cpu_run_support.h"

#include "../../test_paths.h"
#include "collector_test_support.h"
#include "model/format/report_io.h"

#include <catch2/catch.hpp>
#include <regex>

namespace sightline::test {

long printed(const std::string& out, const std::string& key)
{
    std::smatch match;
    return std::regex_search(out, match, std::regex(key + " (\\d+)")) ? std::stol(match[1]) : -1;
}

CpuRun profileCpu(const std::string& name, const std::string& program, const std::string& options)
{
    const auto dir = scratchDir(name);
    const std::string report = (dir / "cpu.rep").string();
    CpuRun r;
    r.run = runCommand(
        profileCommand() + " -t none " + options + " -o " + shellQuote(report) + " " + shellQuote(program));
    INFO(r.run.err);
    REQUIRE(r.run.exitCode == 0);
    Result<Trace> trace = readReport(report);
    REQUIRE(trace);
    r.trace = std::move(trace.value());
    for (const Diagnostic& d : r.trace.diagnostics)
        r.refused = r.refused || d.text.find("perf events were refused") != std::string::npos;
    return r;
}

bool stackHas(const Trace& trace, uint32_t stack, std::string_view function)
{
    const bool prefix = function.ends_with('(');
    for (uint32_t frame : trace.cpu.framesOf(stack)) {
        const std::string_view name = trace.strings[trace.cpu.frames[frame].function];
        if (prefix ? name.starts_with(function) : name == function) return true;
    }
    return false;
}

} // namespace sightline::test
