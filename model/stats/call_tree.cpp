#include "model/stats/call_tree.h"

#include <algorithm>
#include <unordered_map>

namespace sightline {
namespace {

constexpr uint32_t kUnstackedFunction = 0; // function 0 is "[no call stack]"

bool cancelled(const std::atomic<bool>* cancel)
{
    return cancel && cancel->load(std::memory_order_relaxed);
}

// The caller of stack node `node`, or kNoCallStack. A parent that does not lie below its child
// (damaged input) ends the stack, so every walk up ends.
uint32_t callerOf(const CpuProfile& cpu, uint32_t node)
{
    const uint32_t parent = cpu.stacks[node].parent;
    return parent < node ? parent : kNoCallStack;
}

uint64_t functionKey(StringId name, StringId module)
{
    return uint64_t(name.value) << 32 | module.value;
}

// Dense function numbers: frames of one (name, module) share one.
struct FunctionNumbering
{
    std::vector<CallFunction> functions;
    std::vector<uint32_t> ofNode; // per stack node

    explicit FunctionNumbering(const CpuProfile& cpu)
    {
        functions.push_back({StringId {}, StringId {}, true});
        std::unordered_map<uint64_t, uint32_t> ids;
        auto number = [&](StringId name, StringId module) {
            auto [it, added] = ids.try_emplace(functionKey(name, module), uint32_t(functions.size()));
            if (added) functions.push_back({name, module});
            return it->second;
        };
        std::vector<uint32_t> ofFrame;
        ofFrame.reserve(cpu.frames.size());
        for (const StackFrame& frame : cpu.frames)
            ofFrame.push_back(number(frame.function, frame.module));
        ofNode.reserve(cpu.stacks.size());
        for (const CallStackNode& node : cpu.stacks)
            ofNode.push_back(node.frame < ofFrame.size() ? ofFrame[node.frame] : number({}, {}));
    }
};

// The scope's samples per leaf stack node; those without a valid stack in `unstacked`.
struct LeafCounts
{
    std::vector<int64_t> perStack;
    int64_t unstacked = 0;
    int64_t samples = 0;
};

LeafCounts countLeaves(const CpuProfile& cpu, const CallScope& scope)
{
    LeafCounts counts;
    counts.perStack.assign(cpu.stacks.size(), 0);
    std::vector<Tid> threads = scope.threads.value_or(std::vector<Tid> {});
    std::sort(threads.begin(), threads.end());
    for (const ThreadRange& thread : cpu.sampleThreads) {
        if (scope.threads && !std::binary_search(threads.begin(), threads.end(), thread.tid)) continue;
        const std::span<const CpuSample> samples = scope.range
            ? cpu.threadSamples(thread.tid, *scope.range)
            : std::span<const CpuSample>(cpu.samples.data() + thread.first, thread.count);
        counts.samples += int64_t(samples.size());
        int64_t* perStack = counts.perStack.data();
        const size_t stackCount = counts.perStack.size();
        for (const CpuSample& sample : samples) {
            if (sample.stack < stackCount)
                ++perStack[sample.stack];
            else
                ++counts.unstacked;
        }
    }
    return counts;
}

// A tree while it grows: nodes in order of creation, looked up by (parent, function) in an
// open-addressing table (linear probing, at most half full), which keeps lookups to one or
// two cache lines where a node-based map would chase pointers.
class GrowingTree
{
public:
    GrowingTree() { m_slots.assign(kInitialSlots, Slot {}); }

    uint32_t child(uint32_t parent, uint32_t function)
    {
        Slot& slot = m_slots[slotOf(key(parent, function))];
        if (slot.key == kEmpty) {
            slot = {key(parent, function), uint32_t(nodes.size())};
            nodes.push_back({function, parent});
            if (nodes.size() * 2 > m_slots.size()) grow();
            return uint32_t(nodes.size() - 1);
        }
        return slot.node;
    }
    uint32_t find(uint32_t parent, uint32_t function) const
    {
        const Slot& slot = m_slots[slotOf(key(parent, function))];
        return slot.key == kEmpty ? kNoCallNode : slot.node;
    }

    std::vector<CallNode> nodes;

private:
    static constexpr uint64_t kEmpty = ~0ull;
    static constexpr size_t kInitialSlots = 1024;
    struct Slot
    {
        uint64_t key = kEmpty;
        uint32_t node = 0;
    };

    // (parent + 1, function): the roots' parent becomes 0, and no key is all ones while nodes
    // number fewer than 2^32 - 1.
    static uint64_t key(uint32_t parent, uint32_t function)
    {
        return uint64_t(uint32_t(parent + 1)) << 32 | function;
    }
    // The slot holding `k`, or the empty one where it would go.
    size_t slotOf(uint64_t k) const
    {
        const size_t mask = m_slots.size() - 1;
        size_t i = size_t((k * 0x9E3779B97F4A7C15ull) >> 20) & mask;
        while (m_slots[i].key != k && m_slots[i].key != kEmpty)
            i = (i + 1) & mask;
        return i;
    }
    void grow()
    {
        std::vector<Slot> old(m_slots.size() * 2, Slot {});
        old.swap(m_slots);
        for (const Slot& slot : old)
            if (slot.key != kEmpty) m_slots[slotOf(slot.key)] = slot;
    }

    std::vector<Slot> m_slots; // a power of two
};

// Lays a grown tree out breadth first, each node's children together and ordered by total
// (largest first), self, then `rank` of their function; renumbers functions by `newFunction`.
CallTree layOut(
    const GrowingTree& grown, const std::vector<uint32_t>& newFunction, const std::vector<uint32_t>& rank)
{
    const std::vector<CallNode>& raw = grown.nodes;
    const size_t n = raw.size();
    // Children per node, counting-sort style: parents' slots [begin[p], begin[p + 1]); roots last.
    std::vector<uint32_t> begin(n + 2, 0);
    auto slotOf = [&](const CallNode& node) { return node.parent == kNoCallNode ? n : size_t(node.parent); };
    for (const CallNode& node : raw)
        ++begin[slotOf(node) + 1];
    for (size_t i = 1; i < begin.size(); ++i)
        begin[i] += begin[i - 1];
    std::vector<uint32_t> kids(n);
    std::vector<uint32_t> fill(begin.begin(), begin.end() - 1);
    for (uint32_t i = 0; i < n; ++i)
        kids[fill[slotOf(raw[i])]++] = i;
    auto before = [&](uint32_t a, uint32_t b) {
        const CallNode &x = raw[a], &y = raw[b];
        if (x.total != y.total) return x.total > y.total;
        if (x.self != y.self) return x.self > y.self;
        return rank[x.function] < rank[y.function];
    };

    CallTree tree;
    std::vector<uint32_t> order(kids.begin() + begin[n], kids.begin() + begin[n + 1]);
    std::sort(order.begin(), order.end(), before);
    tree.rootCount = uint32_t(order.size());
    order.reserve(n);
    tree.nodes.resize(n);
    for (size_t i = 0; i < order.size(); ++i) {
        const uint32_t node = order[i];
        CallNode& out = tree.nodes[i];
        out.firstChild = uint32_t(order.size());
        out.childCount = begin[node + 1] - begin[node];
        order.insert(order.end(), kids.begin() + begin[node], kids.begin() + begin[node + 1]);
        std::sort(order.end() - out.childCount, order.end(), before);
    }
    std::vector<uint32_t> newIndex(n);
    for (uint32_t i = 0; i < n; ++i)
        newIndex[order[i]] = i;
    for (uint32_t i = 0; i < n; ++i) {
        const CallNode& node = raw[order[i]];
        CallNode& out = tree.nodes[i];
        out.function = newFunction[node.function];
        out.parent = node.parent == kNoCallNode ? kNoCallNode : newIndex[node.parent];
        out.self = node.self;
        out.total = node.total;
    }
    return tree;
}

// The walk over the stack tree that counts totals once per sample: a function (or a
// bottom-up chain) adds a node's samples only where no caller above already did, which a
// depth-first walk knows from how often the function is active on the current path. The
// chains a node entered are kept until it is left, so each is looked up once.
class TotalsWalk
{
public:
    TotalsWalk(const CpuProfile& cpu, const FunctionNumbering& numbering, const std::vector<int64_t>& below,
        std::vector<CallFunction>& functions, const GrowingTree& bottomUp,
        const std::vector<uint32_t>& bottomUpRoot)
        : m_cpu(cpu)
        , m_ofNode(numbering.ofNode)
        , m_below(below)
        , m_functions(functions)
        , m_bottomUp(bottomUp)
        , m_bottomUpRoot(bottomUpRoot)
        , m_functionActive(functions.size(), 0)
        , m_chains(bottomUp.nodes.size())
    { }

    // The bottom-up chains' totals, per node of the bottom-up tree.
    std::vector<int64_t> run(const std::atomic<bool>* cancel)
    {
        // The children of the stack nodes that hold samples, counting-sort style.
        const size_t n = m_cpu.stacks.size();
        std::vector<uint32_t> begin(n + 2, 0);
        auto slotOf = [&](uint32_t node) {
            const uint32_t caller = callerOf(m_cpu, node);
            return caller == kNoCallStack ? n : size_t(caller);
        };
        for (uint32_t node = 0; node < n; ++node)
            if (m_below[node] > 0) ++begin[slotOf(node) + 1];
        for (size_t i = 1; i < begin.size(); ++i)
            begin[i] += begin[i - 1];
        std::vector<uint32_t> kids(begin.back());
        std::vector<uint32_t> fill(begin.begin(), begin.end() - 1);
        for (uint32_t node = 0; node < n; ++node)
            if (m_below[node] > 0) kids[fill[slotOf(node)]++] = node;

        struct Visit
        {
            uint32_t node;
            uint32_t nextKid;
            size_t chainsBegin; // where its chains start in m_entered
        };
        std::vector<Visit> path;
        for (uint32_t r = begin[n]; r < begin[n + 1] && !cancelled(cancel); ++r) {
            path.push_back({kids[r], begin[kids[r]], enter(kids[r])});
            while (!path.empty()) {
                Visit& top = path.back();
                if (top.nextKid < begin[top.node + 1]) {
                    const uint32_t kid = kids[top.nextKid++];
                    path.push_back({kid, begin[kid], enter(kid)});
                } else {
                    leave(top.node, top.chainsBegin);
                    path.pop_back();
                }
            }
        }
        std::vector<int64_t> totals;
        totals.reserve(m_chains.size());
        for (const ChainCount& chain : m_chains)
            totals.push_back(chain.total);
        return totals;
    }

private:
    struct ChainCount
    {
        int64_t total = 0;
        uint32_t active = 0; // how many nodes on the current path entered the chain
    };

    // Returns where the node's chains start in m_entered.
    size_t enter(uint32_t node)
    {
        const size_t chainsBegin = m_entered.size();
        const int64_t below = m_below[node];
        const uint32_t function = m_ofNode[node];
        if (m_functionActive[function]++ == 0) m_functions[function].total += below;
        // The bottom-up chains that start at this node: its function called by its callers.
        uint32_t chain = m_bottomUpRoot[function];
        for (uint32_t caller = node; chain != kNoCallNode;) {
            ChainCount& count = m_chains[chain];
            if (count.active++ == 0) count.total += below;
            m_entered.push_back(chain);
            caller = callerOf(m_cpu, caller);
            if (caller == kNoCallStack) break;
            chain = m_bottomUp.find(chain, m_ofNode[caller]);
        }
        return chainsBegin;
    }

    void leave(uint32_t node, size_t chainsBegin)
    {
        --m_functionActive[m_ofNode[node]];
        for (size_t i = chainsBegin; i < m_entered.size(); ++i)
            --m_chains[m_entered[i]].active;
        m_entered.resize(chainsBegin);
    }

    const CpuProfile& m_cpu;
    const std::vector<uint32_t>& m_ofNode;
    const std::vector<int64_t>& m_below;
    std::vector<CallFunction>& m_functions;
    const GrowingTree& m_bottomUp;
    const std::vector<uint32_t>& m_bottomUpRoot;
    std::vector<uint32_t> m_functionActive;
    std::vector<ChainCount> m_chains;
    std::vector<uint32_t> m_entered; // the chains entered by the nodes on the current path
};

// Function order for ties: by name, then module.
std::vector<uint32_t> nameRanks(const Trace& trace, const std::vector<CallFunction>& functions)
{
    std::vector<uint32_t> order(functions.size());
    for (uint32_t f = 0; f < order.size(); ++f)
        order[f] = f;
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        const CallFunction &x = functions[a], &y = functions[b];
        const auto nameA = functionName(trace, x), nameB = functionName(trace, y);
        if (nameA != nameB) return nameA < nameB;
        return moduleName(trace, x) < moduleName(trace, y);
    });
    std::vector<uint32_t> rank(functions.size());
    for (uint32_t i = 0; i < order.size(); ++i)
        rank[order[i]] = i;
    return rank;
}

} // namespace

CallTrees computeCallTrees(const Trace& trace, const CallScope& scope, const std::atomic<bool>* cancel)
{
    const CpuProfile& cpu = trace.cpu;
    CallTrees result;
    const LeafCounts leaves = countLeaves(cpu, scope);
    if (cancelled(cancel) || leaves.samples == 0) return result;

    FunctionNumbering numbering(cpu);
    std::vector<CallFunction>& functions = numbering.functions;
    const std::vector<uint32_t>& ofNode = numbering.ofNode;
    const size_t stackCount = cpu.stacks.size();

    // Samples at or below each stack node: callers lie below their callees, so one backward pass.
    std::vector<int64_t> below = leaves.perStack;
    for (size_t node = stackCount; node-- > 0;) {
        const uint32_t caller = callerOf(cpu, uint32_t(node));
        if (caller != kNoCallStack) below[caller] += below[node];
    }

    GrowingTree topDown, bottomUp;
    std::vector<uint32_t> bottomUpRoot(functions.size(), kNoCallNode);
    if (leaves.unstacked > 0) {
        functions[kUnstackedFunction].self = functions[kUnstackedFunction].total = leaves.unstacked;
        // One root in each tree; the walks below never reach it.
        for (GrowingTree* tree : {&topDown, &bottomUp}) {
            const uint32_t root = tree->child(kNoCallNode, kUnstackedFunction);
            tree->nodes[root].self = tree->nodes[root].total = leaves.unstacked;
        }
    }

    // Top-down: each stack node with samples becomes the node of its path, parents first.
    std::vector<uint32_t> topDownOf(stackCount, kNoCallNode);
    for (uint32_t node = 0; node < stackCount; ++node) {
        if (below[node] == 0) continue;
        const uint32_t caller = callerOf(cpu, node);
        const uint32_t parent = caller == kNoCallStack ? kNoCallNode : topDownOf[caller];
        const uint32_t path = topDown.child(parent, ofNode[node]);
        topDownOf[node] = path;
        topDown.nodes[path].self += leaves.perStack[node];
        topDown.nodes[path].total += below[node];
        functions[ofNode[node]].self += leaves.perStack[node];
    }
    if (cancelled(cancel)) return {};

    // Bottom-up: each sampled stack, read from its leaf, is one chain of callers.
    for (uint32_t leaf = 0; leaf < stackCount; ++leaf) {
        const int64_t count = leaves.perStack[leaf];
        if (count == 0) continue;
        uint32_t& root = bottomUpRoot[ofNode[leaf]];
        if (root == kNoCallNode) root = bottomUp.child(kNoCallNode, ofNode[leaf]);
        uint32_t chain = root;
        bottomUp.nodes[chain].self += count;
        for (uint32_t caller = callerOf(cpu, leaf); caller != kNoCallStack; caller = callerOf(cpu, caller)) {
            chain = bottomUp.child(chain, ofNode[caller]);
            bottomUp.nodes[chain].self += count;
        }
    }
    if (cancelled(cancel)) return {};
    const std::vector<int64_t> chainTotals
        = TotalsWalk(cpu, numbering, below, functions, bottomUp, bottomUpRoot).run(cancel);
    for (size_t chain = 0; chain < chainTotals.size(); ++chain)
        if (bottomUp.nodes[chain].function != kUnstackedFunction)
            bottomUp.nodes[chain].total = chainTotals[chain];
    if (cancelled(cancel)) return {};

    // The flat table keeps the functions that were seen, by self, then total, then name.
    const std::vector<uint32_t> rank = nameRanks(trace, functions);
    std::vector<uint32_t> kept;
    for (uint32_t f = 0; f < functions.size(); ++f)
        if (functions[f].total > 0) kept.push_back(f);
    std::sort(kept.begin(), kept.end(), [&](uint32_t a, uint32_t b) {
        const CallFunction &x = functions[a], &y = functions[b];
        if (x.self != y.self) return x.self > y.self;
        if (x.total != y.total) return x.total > y.total;
        return rank[a] < rank[b];
    });
    std::vector<uint32_t> newFunction(functions.size(), kNoCallNode);
    for (uint32_t i = 0; i < kept.size(); ++i) {
        newFunction[kept[i]] = i;
        result.functions.push_back(functions[kept[i]]);
    }
    result.samples = leaves.samples;
    result.topDown = layOut(topDown, newFunction, rank);
    result.bottomUp = layOut(bottomUp, newFunction, rank);
    return result;
}

std::string_view functionName(const Trace& trace, const CallFunction& function)
{
    if (function.unstacked) return "[no call stack]";
    const std::string_view name = trace.strings.contains(function.name) ? trace.strings[function.name] : "";
    return name.empty() ? "[unknown]" : name;
}

std::string_view moduleName(const Trace& trace, const CallFunction& function)
{
    return trace.strings.contains(function.module) ? trace.strings[function.module] : "";
}

std::vector<uint32_t> stacksWithFunction(const Trace& trace, const CallFunction& function, bool leafOnly)
{
    if (function.unstacked) return {kNoCallStack};
    const CpuProfile& cpu = trace.cpu;
    std::vector<char> holds(cpu.stacks.size(), 0);
    std::vector<uint32_t> stacks;
    for (uint32_t node = 0; node < cpu.stacks.size(); ++node) {
        const uint32_t frame = cpu.stacks[node].frame;
        const bool here = frame < cpu.frames.size()
            ? cpu.frames[frame].function == function.name && cpu.frames[frame].module == function.module
            : function.name.value == 0 && function.module.value == 0;
        const uint32_t caller = callerOf(cpu, node);
        holds[node] = here || (!leafOnly && caller != kNoCallStack && holds[caller]);
        if (holds[node]) stacks.push_back(node);
    }
    return stacks;
}

} // namespace sightline
