// bench_analyze: the diagnosis (model/analysis) over a generated report of 10M events (or the
// size given), generated in memory: analyze() with every rule over the whole report (target
// <= 1 s on the CI machine) and over a tenth of its span, then what each rule adds to the
// analysis's fixed part (the shared context, the facts and the verdicts, measured by running
// no rule). Prints a table; asserts nothing.
//
//   bench_analyze [EVENTS]     default 10M
#include "bench_support.h"
#include "generate.h"
#include "model/analysis/analysis.h"
#include "model/analysis/rule_catalog.h"

#include <algorithm>
#include <cstdlib>
#include <thread>

using namespace sightline;
using namespace sightline::bench;

namespace {

constexpr int kRuns = 3;

struct Timing
{
    double first = 0;
    double best = 1e30;
    size_t findings = 0;
};

Timing timeAnalysis(const Trace& trace, const AnalysisOptions& options)
{
    Timing timing;
    for (int run = 0; run < kRuns; ++run) {
        const Stopwatch watch;
        const AnalysisResult result = analyze(trace, options);
        const double seconds = watch.seconds();
        if (run == 0) timing.first = seconds;
        timing.best = std::min(timing.best, seconds);
        timing.findings = result.findings.size();
    }
    return timing;
}

} // namespace

int main(int argc, char** argv)
{
    gen::GeneratorOptions generator;
    generator.events = 10'000'000;
    if (argc > 1) {
        const std::optional<uint64_t> events = gen::parseEventCount(argv[1]);
        if (!events || *events == 0 || argc > 2) {
            std::fprintf(stderr, "Usage: bench_analyze [EVENTS]   (e.g. 10M; default 10M)\n");
            return 2;
        }
        generator.events = *events;
    }
    std::fprintf(stderr, "Generating %s events ...\n", shortCount(generator.events).c_str());
    const Stopwatch generating;
    const Trace trace = gen::generateTrace(generator);
    const double generateSeconds = generating.seconds();

    FigureTable table({shortCount(trace.eventCount()) + " events"});
    table.set("generate (in memory)", "-", 0, infoCell(format("%.2f s", generateSeconds)));

    const Timing all = timeAnalysis(trace, {});
    table.set("analyze, all rules, whole report (best / first of 3)", "<= 1 s", 0,
        atMost(all.best, 1.0, format("%.3f / %.3f s, %zu findings", all.best, all.first, all.findings)));

    AnalysisOptions tenth;
    tenth.range = TimeRange {
        trace.span.start + trace.span.duration() * 4 / 10, trace.span.start + trace.span.duration() / 2};
    const Timing ranged = timeAnalysis(trace, tenth);
    table.set("analyze, all rules, a tenth of the span", "-", 0,
        infoCell(format("%.3f s, %zu findings", ranged.best, ranged.findings)));

    // A rule name that matches none runs no rule: what remains is the fixed part.
    AnalysisOptions none;
    none.rules = {"(none)"};
    const double fixed = timeAnalysis(trace, none).best;
    table.set("  fixed part: context, facts, verdicts", "-", 0, infoCell(format("%.3f s", fixed)));
    for (const RuleInfo& rule : analysisRules()) {
        AnalysisOptions one;
        one.rules = {std::string(rule.name)};
        const double seconds = timeAnalysis(trace, one).best;
        table.set("  + " + std::string(rule.name), "-", 0, infoCell(format("%+.3f s", seconds - fixed)));
    }
    table.print(stdout);
    std::printf("(%u hardware threads; analyze() spreads its facts and rules over them)\n",
        std::thread::hardware_concurrency());
    return 0;
}
