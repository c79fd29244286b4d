// The call trees (model/stats/call_tree.h) on random profiles against a count made sample by
// sample: every node of the top-down tree and of the bottom-up tree, grown node by node until
// nothing is left to open, has the numbers, the children and the order that reading each
// sample's stack gives; and the bottom-up filter's answer for nodes not opened matches what
// opening them shows.
#include "model/construct/trace_builder.h"
#include "model/stats/call_tree.h"

#include <catch2/catch.hpp>
#include <map>
#include <random>
#include <set>
#include <tuple>

using namespace sightline;

namespace {

// A function as the trees see it: its name and module, or the samples without a stack.
using FunctionKey = std::tuple<bool, uint32_t, uint32_t>; // unstacked, name, module
using Chain = std::vector<FunctionKey>;

struct Counts
{
    int64_t self = 0;
    int64_t total = 0;
};

struct RandomProfile
{
    Trace trace;
    CallScope scope;
};

// Up to 8 functions in 2 modules, some at two offsets; stacks grown from random nodes so that
// recursion, shared callers and samples ending inside other stacks all occur; a few samples
// without a stack or with a stack id out of range; three threads over a random scope.
RandomProfile randomProfile(uint32_t seed)
{
    std::mt19937 rng(seed);
    TraceBuilder b;
    std::vector<uint32_t> frames;
    const uint32_t functionCount = 3 + rng() % 6;
    for (uint32_t f = 0; f < functionCount; ++f) {
        const StringId name = b.intern("f" + std::to_string(f));
        const StringId module = b.intern(f % 2 ? "liba" : "libb");
        frames.push_back(b.cpuFrame({name, module, 0x10, false}));
        if (rng() % 3 == 0) frames.push_back(b.cpuFrame({name, module, 0x20, false}));
    }
    std::vector<uint32_t> nodes;
    for (uint32_t s = 0, count = 5 + rng() % 40; s < count; ++s) {
        const uint32_t parent = nodes.empty() || rng() % 5 == 0 ? kNoCallStack : nodes[rng() % nodes.size()];
        nodes.push_back(b.cpuStackChild(parent, frames[rng() % frames.size()]));
    }
    for (Timestamp t = 0, count = 20 + rng() % 200; t < count; ++t) {
        const uint32_t pick = rng() % 40;
        const uint32_t stack = pick == 0 ? kNoCallStack : pick == 1 ? 99999 : nodes[rng() % nodes.size()];
        b.addCpuSample({t * 10, Tid(1 + rng() % 3), stack, 0});
    }
    RandomProfile profile {b.build(1), {}};
    if (rng() % 2) profile.scope.range = TimeRange {Timestamp(rng() % 500), Timestamp(1000 + rng() % 1500)};
    if (rng() % 2) profile.scope.threads = std::vector<Tid> {Tid(1 + rng() % 3), Tid(7)};
    return profile;
}

bool inScope(const CpuSample& sample, const CallScope& scope)
{
    if (scope.range && (sample.time < scope.range->start || sample.time >= scope.range->end)) return false;
    return !scope.threads
        || std::find(scope.threads->begin(), scope.threads->end(), sample.tid) != scope.threads->end();
}

// A sample's functions, leaf first.
Chain stackOf(const Trace& trace, const CpuSample& sample)
{
    const CpuProfile& cpu = trace.cpu;
    if (sample.stack >= cpu.stacks.size()) return {FunctionKey {true, 0, 0}};
    Chain functions;
    for (uint32_t node = sample.stack; node != kNoCallStack; node = callerOf(cpu, node)) {
        const StackFrame& frame = cpu.frames[cpu.stacks[node].frame];
        functions.emplace_back(false, frame.function.value, frame.module.value);
    }
    return functions;
}

// The numbers sample by sample. Bottom-up: a chain (leaf first) gets `self` from the samples
// whose stack starts with it, `total` from those that hold it anywhere, once each. Top-down: a
// path (outermost first) gets `self` from the samples whose stack is it, `total` from those
// whose stack starts with it.
struct Expected
{
    std::map<Chain, Counts> bottomUp;
    std::map<Chain, Counts> topDown;
    int64_t samples = 0;
};

Expected countSampleBySample(const Trace& trace, const CallScope& scope)
{
    Expected expected;
    for (const CpuSample& sample : trace.cpu.samples) {
        if (!inScope(sample, scope)) continue;
        ++expected.samples;
        const Chain stack = stackOf(trace, sample);
        for (size_t length = 1; length <= stack.size(); ++length)
            ++expected.bottomUp[Chain(stack.begin(), stack.begin() + length)].self;
        std::set<Chain> held;
        for (size_t start = 0; start < stack.size(); ++start)
            for (size_t end = start + 1; end <= stack.size(); ++end)
                held.insert(Chain(stack.begin() + start, stack.begin() + end));
        for (const Chain& chain : held)
            ++expected.bottomUp[chain].total;
        const Chain path(stack.rbegin(), stack.rend());
        for (size_t length = 1; length <= path.size(); ++length)
            ++expected.topDown[Chain(path.begin(), path.begin() + length)].total;
        ++expected.topDown[path].self;
    }
    return expected;
}

FunctionKey keyOf(const CallTrees& trees, uint32_t function)
{
    const CallFunction& f = trees.functions[function];
    return {f.unstacked, f.unstacked ? 0 : f.name.value, f.unstacked ? 0 : f.module.value};
}

// Siblings stand by total (largest first), self, then name and module.
bool ordered(const Trace& trace, const CallTrees& trees, const CallNode& a, const CallNode& b)
{
    if (a.total != b.total) return a.total > b.total;
    if (a.self != b.self) return a.self > b.self;
    const CallFunction &x = trees.functions[a.function], &y = trees.functions[b.function];
    return std::pair(functionName(trace, x), moduleName(trace, x))
        < std::pair(functionName(trace, y), moduleName(trace, y));
}

// Which expected chains are nodes: every path in the top-down tree, in the bottom-up tree only
// the chains some sample ends in.
enum class Nodes : uint8_t { AllPaths, WithSelf };

// Checks a list of siblings against the expected chains one longer than `chain`.
void checkSiblings(const Trace& trace, const CallTrees& trees, std::span<const CallNode> siblings,
    const Chain& chain, const std::map<Chain, Counts>& expected, Nodes nodes)
{
    size_t wanted = 0;
    for (const auto& [other, counts] : expected)
        if (other.size() == chain.size() + 1 && std::equal(chain.begin(), chain.end(), other.begin())
            && (nodes == Nodes::AllPaths || counts.self > 0))
            ++wanted;
    CHECK(siblings.size() == wanted);
    for (size_t i = 0; i < siblings.size(); ++i) {
        Chain longer = chain;
        longer.push_back(keyOf(trees, siblings[i].function));
        const auto found = expected.find(longer);
        REQUIRE(found != expected.end());
        CHECK(siblings[i].self == found->second.self);
        CHECK(siblings[i].total == found->second.total);
        if (i > 0) CHECK(ordered(trace, trees, siblings[i - 1], siblings[i]));
    }
}

void checkTopDown(const Trace& trace, const CallTrees& trees, const Expected& expected)
{
    const CallTree tree = topDownTree(trees);
    std::vector<Chain> paths(tree.nodes.size());
    checkSiblings(trace, trees, tree.roots(), {}, expected.topDown, Nodes::AllPaths);
    for (uint32_t n = 0; n < tree.nodes.size(); ++n) {
        const CallNode& node = tree.nodes[n];
        if (node.parent != kNoCallNode) paths[n] = paths[node.parent];
        paths[n].push_back(keyOf(trees, node.function));
        checkSiblings(trace, trees, tree.children(node), paths[n], expected.topDown, Nodes::AllPaths);
    }
}

// Opens every node of the bottom-up tree, parents first; returns each node's chain.
std::vector<Chain> openBottomUp(const Trace& trace, const CallTrees& trees, const Expected& expected)
{
    const BottomUpTree& tree = trees.bottomUp;
    std::vector<Chain> chains;
    checkSiblings(trace, trees, tree.roots(), {}, expected.bottomUp, Nodes::WithSelf);
    for (uint32_t n = 0; n < tree.nodeCount(); ++n) {
        const CallNode node = tree.node(n); // a copy: opening nodes moves them
        chains.push_back(node.parent == kNoCallNode ? Chain {} : chains[node.parent]);
        chains.back().push_back(keyOf(trees, node.function));
        CHECK(tree.row(n) == (node.parent == kNoCallNode ? n : n - tree.node(node.parent).firstChild));
        const bool hasChildren = tree.hasChildren(n);
        const std::span<const CallNode> opened = tree.children(n);
        const std::vector<CallNode> children(opened.begin(), opened.end());
        CHECK(hasChildren == !children.empty());
        checkSiblings(trace, trees, children, chains.back(), expected.bottomUp, Nodes::WithSelf);
        for (const CallNode& child : children)
            CHECK(child.parent == n);
    }
    return chains;
}

// Whether a node below `node` (all opened) has a function of `marked`.
bool markedBelow(const CallTrees& trees, uint32_t node, const std::vector<char>& marked)
{
    const BottomUpTree& tree = trees.bottomUp;
    for (uint32_t c = 0; c < tree.node(node).childCount; ++c) {
        const uint32_t child = tree.node(node).firstChild + c;
        if (marked[tree.node(child).function] || markedBelow(trees, child, marked)) return true;
    }
    return false;
}

} // namespace

TEST_CASE("random profiles: every tree node has the numbers counted sample by sample")
{
    for (uint32_t seed = 1; seed <= 60; ++seed) {
        INFO("seed " << seed);
        const RandomProfile profile = randomProfile(seed);
        const Trace& trace = profile.trace;
        const Expected expected = countSampleBySample(trace, profile.scope);
        const CallTrees trees = computeCallTrees(trace, profile.scope);
        REQUIRE(trees.samples == expected.samples);
        for (uint32_t f = 0; f < trees.functions.size(); ++f) {
            const auto found = expected.bottomUp.find(Chain {keyOf(trees, f)});
            REQUIRE(found != expected.bottomUp.end());
            CHECK(trees.functions[f].self == found->second.self);
            CHECK(trees.functions[f].total == found->second.total);
        }
        checkTopDown(trace, trees, expected);
        // A root's numbers are its function's.
        for (const CallNode& root : trees.bottomUp.roots()) {
            CHECK(root.self == trees.functions[root.function].self);
            CHECK(root.total == trees.functions[root.function].total);
        }

        // Before anything is opened, the filter's answer for each root...
        std::mt19937 rng(seed);
        std::vector<char> marked(trees.functions.size());
        for (char& mark : marked)
            mark = rng() % 4 == 0;
        const std::vector<char> markedStacks = trees.bottomUp.markStacks(marked);
        std::vector<bool> rootAnswers;
        for (uint32_t root = 0; root < trees.bottomUp.rootCount(); ++root)
            rootAnswers.push_back(trees.bottomUp.callersHold(root, markedStacks));

        const std::vector<Chain> chains = openBottomUp(trace, trees, expected);
        size_t nodesWanted = 0;
        for (const auto& [chain, counts] : expected.bottomUp)
            nodesWanted += counts.self > 0;
        CHECK(chains.size() == nodesWanted);

        // ...and for every node once opened, is what opening shows.
        for (uint32_t root = 0; root < trees.bottomUp.rootCount(); ++root)
            CHECK(rootAnswers[root] == markedBelow(trees, root, marked));
        for (uint32_t n = 0; n < trees.bottomUp.nodeCount(); ++n)
            CHECK(trees.bottomUp.callersHold(n, markedStacks) == markedBelow(trees, n, marked));
    }
}
