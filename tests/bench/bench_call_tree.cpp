// Call tree figures over 10M CPU samples: the bottom-up table (computeCallTrees: the flat table
// and the bottom-up roots; target <= 0.5 s) for the whole trace, a range and one thread; the
// top-down tree the view makes after it (topDownTree, for the Top-Down tab and the flame
// graph); then opening the largest bottom-up root three levels deep, as the view fetches
// callers on expand. The samples take STACKS distinct stacks, random walks over a call graph
// (see below).
//
//   bench_call_tree [SAMPLES] [STACKS]     default 10000000 20000
#include "bench_support.h"
#include "model/construct/trace_builder.h"
#include "model/stats/call_tree.h"

#include <cstdlib>
#include <random>

using namespace sightline;
using namespace sightline::bench;

int main(int argc, char** argv)
{
    const int64_t samples = argc > 1 ? std::atoll(argv[1]) : 10'000'000;
    const int stacks = argc > 2 ? std::atoi(argv[2]) : 20000;
    TraceBuilder builder;
    std::mt19937 rng(5);
    // A call graph of 2000 functions in 12 modules, each calling 2 to 6 others; a stack is a
    // walk from main 8 to 60 calls deep, its leaf at one of 16 addresses. Walks share their
    // outer frames, as real stacks do.
    const int functionCount = 2000;
    std::vector<std::vector<int>> callees(functionCount);
    for (std::vector<int>& list : callees)
        for (uint32_t c = 0, n = 2 + rng() % 5; c < n; ++c)
            list.push_back(int(rng() % functionCount));
    auto frameOf = [&](int function, uint64_t offset) {
        return builder.cpuFrame({builder.intern("function_" + std::to_string(function)),
            builder.intern("lib" + std::to_string(function % 12) + ".so"), offset, false});
    };
    std::vector<uint32_t> leaves;
    for (int s = 0; s < stacks; ++s) {
        uint32_t node = builder.cpuStackChild(kNoCallStack, frameOf(0, 0x40));
        int function = 0;
        for (uint32_t depth = 8 + rng() % 53; depth > 1; --depth) {
            const std::vector<int>& list = callees[size_t(function)];
            function = list[rng() % list.size()];
            node = builder.cpuStackChild(node, frameOf(function, depth == 2 ? 0x100 + rng() % 16 : 0x80));
        }
        leaves.push_back(node);
    }
    for (int64_t i = 0; i < samples; ++i)
        builder.addCpuSample({i * 100'000, Tid(uint32_t(1 + i % 8)), leaves[rng() % leaves.size()], 0});
    const Trace trace = builder.build();

    FigureTable table({shortCount(uint64_t(samples)) + " samples"});
    auto measure = [&](const std::string& figure, const CallScope& scope, double limit) {
        double best = 1e9;
        CallTrees trees;
        for (int run = 0; run < 3; ++run) {
            const Stopwatch watch;
            trees = computeCallTrees(trace, scope);
            best = std::min(best, watch.seconds());
        }
        table.set(figure, format("<= %.2f s", limit), 0,
            atMost(best, limit,
                format("%.3f s (%s samples, %u bottom-up roots, %zu functions)", best,
                    shortCount(uint64_t(trees.samples)).c_str(), trees.bottomUp.rootCount(),
                    trees.functions.size())));
    };
    auto measureTopDown = [&](const std::string& figure) {
        const CallTrees trees = computeCallTrees(trace);
        double best = 1e9;
        size_t nodes = 0;
        for (int run = 0; run < 3; ++run) {
            const Stopwatch watch;
            nodes = topDownTree(trees).nodes.size();
            best = std::min(best, watch.seconds());
        }
        table.set(figure, "-", 0, infoCell(format("%.3f s (%zu nodes)", best, nodes)));
    };
    // The callers of a root (the largest by total, the tree's first, or the one with the most
    // self samples, the view's first row), their callers and theirs, on fresh trees each run.
    enum class Root : uint8_t { LargestTotal, LargestSelf };
    auto measureOpening = [&](const std::string& figure, Root which, double limit) {
        double best = 1e9;
        size_t opened = 0;
        for (int run = 0; run < 3; ++run) {
            const CallTrees trees = computeCallTrees(trace);
            const BottomUpTree& tree = trees.bottomUp;
            const Stopwatch watch;
            std::vector<uint32_t> level;
            for (uint32_t root = 0; root < tree.rootCount(); ++root)
                if (level.empty()
                    || (which == Root::LargestSelf && tree.node(root).self > tree.node(level[0]).self))
                    level = {root};
            for (int depth = 0; depth < 3; ++depth) {
                std::vector<uint32_t> next;
                for (const uint32_t node : level) {
                    tree.children(node);
                    const CallNode& caller = tree.node(node);
                    for (uint32_t child = 0; child < caller.childCount; ++child)
                        next.push_back(caller.firstChild + child);
                }
                level = std::move(next);
            }
            best = std::min(best, watch.seconds());
            opened = tree.nodeCount() - tree.rootCount();
        }
        table.set(figure, format("<= %.2f s", limit), 0,
            atMost(best, limit, format("%.3f s (%zu callers made)", best, opened)));
    };
    measure("bottom-up table, whole trace", {}, 0.5);
    measure(
        "bottom-up table, a quarter of the time", {TimeRange {0, samples * 100'000 / 4}, std::nullopt}, 0.5);
    measure("bottom-up table, one thread of eight", {std::nullopt, std::vector<Tid> {Tid(3)}}, 0.5);
    measureTopDown("then the top-down tree, whole trace");
    measureOpening("largest bottom-up root opened 3 deep", Root::LargestTotal, 0.1);
    measureOpening("hottest bottom-up root opened 3 deep", Root::LargestSelf, 0.1);
    std::printf("%zu stack nodes, %d distinct sampled stacks\n", trace.cpu.stacks.size(), stacks);
    table.print(stdout);
    return 0;
}
