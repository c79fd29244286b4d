// The call trees over CPU samples (model/stats/call_tree.h): top-down, bottom-up and flat
// numbers on a profile with known shares, recursion counted once per sample, the range and
// thread filters, and the stacks that select a function's samples.
#include "model/stats/call_tree.h"
#include "unit/support/cpu_sample_trace.h"

#include <catch2/catch.hpp>

using namespace sightline;
using namespace sightline::test;

namespace {

const CallFunction* findFunction(const Trace& trace, const CallTrees& trees, std::string_view name)
{
    for (const CallFunction& function : trees.functions)
        if (functionName(trace, function) == name) return &function;
    return nullptr;
}

// The node at the end of a path of function names from a root, or null.
const CallNode* findPath(const Trace& trace, const CallTrees& trees, const CallTree& tree,
    std::initializer_list<std::string_view> path)
{
    std::span<const CallNode> level = tree.roots();
    const CallNode* found = nullptr;
    for (std::string_view name : path) {
        found = nullptr;
        for (const CallNode& node : level)
            if (functionName(trace, trees.functions[node.function]) == name) found = &node;
        if (!found) return nullptr;
        level = tree.children(*found);
    }
    return found;
}

// The same in the bottom-up tree, opening the nodes on the way.
const CallNode* findPath(const Trace& trace, const CallTrees& trees, const BottomUpTree& tree,
    std::initializer_list<std::string_view> path)
{
    uint32_t found = kNoCallNode;
    for (std::string_view name : path) {
        const std::span<const CallNode> level = found == kNoCallNode ? tree.roots() : tree.children(found);
        const uint32_t first = found == kNoCallNode ? 0 : tree.node(found).firstChild;
        found = kNoCallNode;
        for (uint32_t i = 0; i < level.size(); ++i)
            if (functionName(trace, trees.functions[level[i].function]) == name) found = first + i;
        if (found == kNoCallNode) return nullptr;
    }
    return &tree.node(found);
}

std::vector<std::string> namesOf(const Trace& trace, const CallTrees& trees, std::span<const CallNode> nodes)
{
    std::vector<std::string> names;
    for (const CallNode& node : nodes)
        names.emplace_back(functionName(trace, trees.functions[node.function]));
    return names;
}

struct Numbers
{
    int64_t self;
    int64_t total;
    friend bool operator==(const Numbers&, const Numbers&) = default;
};

Numbers numbersOf(const CallNode* node)
{
    return node ? Numbers {node->self, node->total} : Numbers {-1, -1};
}

Numbers numbersOf(const CallFunction* function)
{
    return function ? Numbers {function->self, function->total} : Numbers {-1, -1};
}

// How many samples of the trace have their stack in `stacks`.
int64_t samplesIn(const Trace& trace, const std::vector<uint32_t>& stacks)
{
    int64_t count = 0;
    for (const CpuSample& sample : trace.cpu.samples)
        count += std::binary_search(stacks.begin(), stacks.end(), sample.stack);
    return count;
}

} // namespace

TEST_CASE("the flat table counts self and total samples per function, recursion once")
{
    const Trace trace = cpuSampleTrace();
    const CallTrees trees = computeCallTrees(trace);
    CHECK(trees.samples == 10);
    REQUIRE(trees.functions.size() == 5);
    CHECK(functionName(trace, trees.functions[0]) == "hot_a");
    CHECK(moduleName(trace, trees.functions[0]) == "libhot.so");
    CHECK(functionName(trace, trees.functions[1]) == "hot_b");
    CHECK(numbersOf(findFunction(trace, trees, "hot_a")) == Numbers {7, 8});
    CHECK(numbersOf(findFunction(trace, trees, "hot_b")) == Numbers {3, 3});
    CHECK(numbersOf(findFunction(trace, trees, "rec")) == Numbers {0, 4});
    CHECK(numbersOf(findFunction(trace, trees, "run")) == Numbers {0, 9});
    CHECK(numbersOf(findFunction(trace, trees, "main")) == Numbers {0, 10});
    CHECK(trees.percent(trees.functions[0].self) == Approx(70.0));
    CHECK(trees.percent(trees.functions[1].self) == Approx(30.0));
    // Functions never at the leaf follow by total.
    CHECK(functionName(trace, trees.functions[2]) == "main");
    CHECK(functionName(trace, trees.functions[3]) == "run");
    CHECK(functionName(trace, trees.functions[4]) == "rec");
}

TEST_CASE("the top-down tree follows call paths from the outermost frame")
{
    const Trace trace = cpuSampleTrace();
    const CallTrees trees = computeCallTrees(trace);
    const CallTree tree = topDownTree(trees);
    REQUIRE(tree.rootCount == 1);
    CHECK(numbersOf(findPath(trace, trees, tree, {"main"})) == Numbers {0, 10});
    const CallNode* main = findPath(trace, trees, tree, {"main"});
    CHECK(namesOf(trace, trees, tree.children(*main)) == std::vector<std::string> {"run", "hot_a"});
    const CallNode* run = findPath(trace, trees, tree, {"main", "run"});
    CHECK(numbersOf(run) == Numbers {0, 9});
    CHECK(namesOf(trace, trees, tree.children(*run)) == std::vector<std::string> {"rec", "hot_a", "hot_b"});
    CHECK(numbersOf(findPath(trace, trees, tree, {"main", "run", "rec"})) == Numbers {0, 4});
    CHECK(numbersOf(findPath(trace, trees, tree, {"main", "run", "rec", "rec"})) == Numbers {0, 4});
    CHECK(numbersOf(findPath(trace, trees, tree, {"main", "run", "rec", "rec", "hot_a"})) == Numbers {4, 4});
    CHECK(numbersOf(findPath(trace, trees, tree, {"main", "run", "hot_a"})) == Numbers {3, 3});
    CHECK(numbersOf(findPath(trace, trees, tree, {"main", "run", "hot_b"})) == Numbers {2, 2});
    // hot_a at another offset is the same function: one node, called from main.
    CHECK(numbersOf(findPath(trace, trees, tree, {"main", "hot_a"})) == Numbers {0, 1});
    CHECK(numbersOf(findPath(trace, trees, tree, {"main", "hot_a", "hot_b"})) == Numbers {1, 1});
    // The layout: children follow their parent, each node's row is its place among siblings.
    for (uint32_t n = 0; n < tree.nodes.size(); ++n) {
        const CallNode& node = tree.nodes[n];
        if (node.parent != kNoCallNode) CHECK(node.parent < n);
        int64_t childTotals = 0;
        for (const CallNode& child : tree.children(node))
            childTotals += child.total;
        CHECK(node.total == node.self + childTotals);
        const std::span<const CallNode> siblings
            = node.parent == kNoCallNode ? tree.roots() : tree.children(tree.nodes[node.parent]);
        CHECK(&siblings[tree.row(n)] == &node);
    }
}

TEST_CASE("the bottom-up tree starts at leaf functions and counts caller chains once per sample")
{
    const Trace trace = cpuSampleTrace();
    const CallTrees trees = computeCallTrees(trace);
    const BottomUpTree& tree = trees.bottomUp;
    CHECK(namesOf(trace, trees, tree.roots()) == std::vector<std::string> {"hot_a", "hot_b"});
    // A root's numbers are its function's: 70% self, 80% total (the worker's sample passes through it).
    CHECK(numbersOf(findPath(trace, trees, tree, {"hot_a"})) == Numbers {7, 8});
    CHECK(namesOf(trace, trees, tree.children(0)) == std::vector<std::string> {"rec", "run"});
    CHECK(numbersOf(findPath(trace, trees, tree, {"hot_a", "rec"})) == Numbers {4, 4});
    CHECK(numbersOf(findPath(trace, trees, tree, {"hot_a", "rec", "rec", "run", "main"})) == Numbers {4, 4});
    CHECK(numbersOf(findPath(trace, trees, tree, {"hot_a", "run"})) == Numbers {3, 3});
    CHECK(numbersOf(findPath(trace, trees, tree, {"hot_a", "run", "main"})) == Numbers {3, 3});
    CHECK(findPath(trace, trees, tree, {"hot_a", "main"}) == nullptr); // hot_a is no leaf under main
    CHECK(numbersOf(findPath(trace, trees, tree, {"hot_b"})) == Numbers {3, 3});
    CHECK(numbersOf(findPath(trace, trees, tree, {"hot_b", "run", "main"})) == Numbers {2, 2});
    CHECK(numbersOf(findPath(trace, trees, tree, {"hot_b", "hot_a", "main"})) == Numbers {1, 1});
}

TEST_CASE("a recursive leaf counts once per sample in every tree")
{
    TraceBuilder b;
    const uint32_t main = b.cpuFrame({b.intern("main"), b.intern("app"), 1, false});
    const uint32_t f = b.cpuFrame({b.intern("f"), b.intern("app"), 2, false});
    const uint32_t deep = b.cpuStack(std::array {f, f, f, main});
    const uint32_t shallow = b.cpuStack(std::array {f, main});
    b.addCpuSample({0, Tid(1), deep, 0});
    b.addCpuSample({1, Tid(1), deep, 0});
    b.addCpuSample({2, Tid(1), shallow, 0});
    const Trace trace = b.build(1);
    const CallTrees trees = computeCallTrees(trace);
    CHECK(numbersOf(findFunction(trace, trees, "f")) == Numbers {3, 3});
    const CallTree topDown = topDownTree(trees);
    CHECK(numbersOf(findPath(trace, trees, topDown, {"main", "f"})) == Numbers {1, 3});
    CHECK(numbersOf(findPath(trace, trees, topDown, {"main", "f", "f", "f"})) == Numbers {2, 2});
    const BottomUpTree& up = trees.bottomUp;
    CHECK(numbersOf(findPath(trace, trees, up, {"f"})) == Numbers {3, 3});
    CHECK(numbersOf(findPath(trace, trees, up, {"f", "f"})) == Numbers {2, 2});
    CHECK(numbersOf(findPath(trace, trees, up, {"f", "f", "f", "main"})) == Numbers {2, 2});
    // main > f holds in all three samples, though only one has it at the leaf.
    CHECK(numbersOf(findPath(trace, trees, up, {"f", "main"})) == Numbers {1, 3});
}

TEST_CASE("a time range and a thread set choose the samples")
{
    const Trace trace = cpuSampleTrace(3);
    CHECK(computeCallTrees(trace).samples == 30);

    // [0, 45): the main thread's first five samples and the worker's one.
    const CallTrees early = computeCallTrees(trace, {TimeRange {0, 45}, std::nullopt});
    CHECK(early.samples == 6);
    CHECK(numbersOf(findFunction(trace, early, "hot_a")) == Numbers {5, 6});
    CHECK(numbersOf(findFunction(trace, early, "hot_b")) == Numbers {1, 1});
    CHECK(numbersOf(findFunction(trace, early, "rec")) == Numbers {0, 4});

    const CallTrees worker = computeCallTrees(trace, {std::nullopt, std::vector<Tid> {kCpuWorkerThread}});
    CHECK(worker.samples == 3);
    REQUIRE(worker.functions.size() == 3);
    CHECK(numbersOf(findFunction(trace, worker, "hot_b")) == Numbers {3, 3});
    CHECK(worker.percent(worker.functions[0].self) == Approx(100.0));
    CHECK(findFunction(trace, worker, "run") == nullptr);

    // Both: the main thread's second round.
    const CallTrees both
        = computeCallTrees(trace, {TimeRange {100, 200}, std::vector<Tid> {kCpuMainThread, Tid(99)}});
    CHECK(both.samples == 9);
    CHECK(numbersOf(findFunction(trace, both, "hot_a")) == Numbers {7, 7});
    CHECK(numbersOf(findFunction(trace, both, "run")) == Numbers {0, 9});

    const CallTrees none = computeCallTrees(trace, {TimeRange {1000, 2000}, std::nullopt});
    CHECK(none.samples == 0);
    CHECK(none.functions.empty());
    CHECK(topDownTree(none).nodes.empty());
    CHECK(computeCallTrees(trace, {std::nullopt, std::vector<Tid> {}}).samples == 0);
}

TEST_CASE("samples without a stack count under [no call stack]")
{
    TraceBuilder b;
    addCpuSamples(b);
    b.addCpuSample({90, kCpuMainThread, kNoCallStack, 0});
    b.addCpuSample({91, kCpuMainThread, 12345, 0}); // a stack id out of range reads as none
    const Trace trace = b.build(1);
    const CallTrees trees = computeCallTrees(trace);
    CHECK(trees.samples == 12);
    const CallFunction* unstacked = findFunction(trace, trees, "[no call stack]");
    REQUIRE(unstacked);
    CHECK(unstacked->unstacked);
    CHECK(numbersOf(unstacked) == Numbers {2, 2});
    CHECK(numbersOf(findPath(trace, trees, topDownTree(trees), {"[no call stack]"})) == Numbers {2, 2});
    CHECK(numbersOf(findPath(trace, trees, trees.bottomUp, {"[no call stack]"})) == Numbers {2, 2});
    int64_t selfSum = 0;
    for (const CallFunction& function : trees.functions)
        selfSum += function.self;
    CHECK(selfSum == trees.samples);
    CHECK(stacksWithFunction(trace, *unstacked, false) == std::vector<uint32_t> {kNoCallStack});
}

TEST_CASE("a function's stacks select exactly its samples")
{
    const Trace trace = cpuSampleTrace(2);
    const CallTrees trees = computeCallTrees(trace);
    for (const CallFunction& function : trees.functions) {
        INFO(functionName(trace, function));
        const std::vector<uint32_t> anywhere = stacksWithFunction(trace, function, false);
        const std::vector<uint32_t> leaf = stacksWithFunction(trace, function, true);
        CHECK(std::is_sorted(anywhere.begin(), anywhere.end()));
        CHECK(samplesIn(trace, anywhere) == function.total);
        CHECK(samplesIn(trace, leaf) == function.self);
    }
}

TEST_CASE("a cancelled computation stops with empty trees")
{
    const Trace trace = cpuSampleTrace();
    const std::atomic<bool> cancel {true};
    const CallTrees trees = computeCallTrees(trace, {}, &cancel);
    CHECK(trees.functions.empty());
    CHECK(trees.bottomUp.rootCount() == 0);
}

TEST_CASE("a cancelled top-down tree is empty, and the same trees then make it whole")
{
    const Trace trace = cpuSampleTrace(2);
    const CallTrees trees = computeCallTrees(trace);
    const std::atomic<bool> cancel {true};
    CHECK(topDownTree(trees, &cancel).nodes.empty());
    const CallTree tree = topDownTree(trees);
    REQUIRE(tree.rootCount > 0);
    int64_t rootSamples = 0;
    for (const CallNode& root : tree.roots())
        rootSamples += root.total;
    CHECK(rootSamples == trees.samples);
}
