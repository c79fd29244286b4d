#include "model/stats/bottom_up_tree.h"

#include <algorithm>

namespace sightline {
namespace {

// Lists of indices grouped by a key, counting-sort style: the members of group g are
// members[begin[g], begin[g + 1]), in the order they were given.
struct Groups
{
    std::vector<uint32_t> begin;
    std::vector<uint32_t> members;

    // `keyOf(i)` for i in [0, count): a group below `groupCount`, or groupCount to leave i out.
    template <class KeyOf>
    Groups(size_t count, size_t groupCount, KeyOf keyOf)
        : begin(groupCount + 2, 0)
    {
        for (uint32_t i = 0; i < count; ++i)
            ++begin[keyOf(i) + 1];
        for (size_t g = 1; g < begin.size(); ++g)
            begin[g] += begin[g - 1];
        members.resize(begin[groupCount]);
        std::vector<uint32_t> fill(begin.begin(), begin.end() - 1);
        for (uint32_t i = 0; i < count; ++i)
            if (const size_t key = keyOf(i); key < groupCount) members[fill[key]++] = i;
    }
    std::span<const uint32_t> of(size_t group) const
    {
        return {members.data() + begin[group], members.data() + begin[group + 1]};
    }
};

} // namespace

uint32_t callerOf(const CpuProfile& cpu, uint32_t node)
{
    const uint32_t parent = cpu.stacks[node].parent;
    return parent < node ? parent : kNoCallStack;
}

SampledStacks sampledStacks(const CpuProfile& cpu, const std::vector<uint32_t>& functionOf,
    const std::vector<int64_t>& leafSamples, const std::atomic<bool>* cancel)
{
    const size_t n = cpu.stacks.size();
    // Callers lie below their callees, so one backward pass sums each node's samples and
    // counts the sampled nodes of its subtree...
    std::vector<int64_t> below = leafSamples;
    std::vector<uint32_t> subtreeSize(n, 0);
    for (size_t node = n; node-- > 0;) {
        if (below[node] == 0) continue;
        ++subtreeSize[node];
        if (const uint32_t caller = callerOf(cpu, uint32_t(node)); caller != kNoCallStack) {
            below[caller] += below[node];
            subtreeSize[caller] += subtreeSize[node];
        }
    }
    if (cancel && cancel->load(std::memory_order_relaxed)) return {};

    // ...and one forward pass numbers them depth first: a node takes the next free number
    // under its caller and leaves its subtree's numbers to its callees.
    SampledStacks stacks;
    uint32_t sampled = 0;
    for (size_t node = 0; node < n; ++node)
        if (below[node] > 0 && callerOf(cpu, uint32_t(node)) == kNoCallStack) sampled += subtreeSize[node];
    stacks.caller.resize(sampled);
    stacks.function.resize(sampled);
    stacks.leafSamples.resize(sampled);
    stacks.samplesBelow.resize(sampled);
    stacks.subtreeEnd.resize(sampled);
    std::vector<uint32_t> numberOf(n), nextFree(n);
    uint32_t nextOutermost = 0;
    for (uint32_t node = 0; node < n; ++node) {
        if (below[node] == 0) continue;
        const uint32_t caller = callerOf(cpu, node);
        uint32_t& next = caller == kNoCallStack ? nextOutermost : nextFree[caller];
        const uint32_t number = next;
        next += subtreeSize[node];
        numberOf[node] = number;
        nextFree[node] = number + 1;
        stacks.caller[number] = caller == kNoCallStack ? kNoCallStack : numberOf[caller];
        stacks.function[number] = functionOf[node];
        stacks.leafSamples[number] = leafSamples[node];
        stacks.samplesBelow[number] = below[node];
        stacks.subtreeEnd[number] = number + subtreeSize[node];
    }
    return stacks;
}

std::vector<int64_t> functionTotals(const SampledStacks& stacks, size_t functionCount)
{
    // Depth first, a node of a function below another node of it falls in that one's subtree,
    // which ends where the function's `covered` says; only the outermost ones add their samples.
    std::vector<int64_t> totals(functionCount, 0);
    std::vector<uint32_t> covered(functionCount, 0);
    for (uint32_t node = 0; node < stacks.size(); ++node) {
        const uint32_t function = stacks.function[node];
        if (node < covered[function]) continue;
        totals[function] += stacks.samplesBelow[node];
        covered[function] = stacks.subtreeEnd[node];
    }
    return totals;
}

BottomUpTree::BottomUpTree(
    SampledStacks stacks, std::span<const CallFunction> functions, std::vector<uint32_t> rank)
    : m_stacks(std::move(stacks))
    , m_rank(std::move(rank))
    , m_childOfFunction(functions.size(), kNoCallNode)
{
    const Groups places(
        m_stacks.size(), functions.size(), [&](uint32_t node) { return size_t(m_stacks.function[node]); });
    std::vector<uint32_t> roots;
    for (uint32_t f = 0; f < functions.size(); ++f)
        if (functions[f].self > 0) roots.push_back(f);
    std::sort(roots.begin(), roots.end(), [&](uint32_t a, uint32_t b) {
        return SiblingOrder {m_rank}({a, kNoCallNode, 0, 0, functions[a].self, functions[a].total},
            {b, kNoCallNode, 0, 0, functions[b].self, functions[b].total});
    });
    m_rootCount = uint32_t(roots.size());
    m_placeList.reserve(places.members.size());
    for (const uint32_t function : roots) {
        NodePlaces root {m_placeList.size(), 0, false, false};
        for (const uint32_t node : places.of(function)) {
            m_placeList.push_back({node, node});
            root.hasCallers = root.hasCallers
                || (m_stacks.leafSamples[node] > 0 && m_stacks.caller[node] != kNoCallStack);
        }
        root.count = m_placeList.size() - root.first;
        m_nodes.push_back({function, kNoCallNode, 0, 0, functions[function].self, functions[function].total});
        m_places.push_back(root);
    }
}

std::span<const CallNode> BottomUpTree::roots() const
{
    return {m_nodes.data(), m_rootCount};
}

const CallNode& BottomUpTree::node(uint32_t node) const
{
    return m_nodes[node];
}

size_t BottomUpTree::nodeCount() const
{
    return m_nodes.size();
}

uint32_t BottomUpTree::row(uint32_t node) const
{
    const uint32_t parent = m_nodes[node].parent;
    return parent == kNoCallNode ? node : node - m_nodes[parent].firstChild;
}

std::span<const BottomUpTree::Place> BottomUpTree::placesOf(uint32_t node) const
{
    return {m_placeList.data() + m_places[node].first, m_places[node].count};
}

int64_t BottomUpTree::samplesUnder(std::span<const Place> places) const
{
    // As in functionTotals: a start inside the subtree of an earlier one adds nothing.
    int64_t samples = 0;
    uint32_t covered = 0;
    for (const Place& place : places) {
        if (place.start < covered) continue;
        samples += m_stacks.samplesBelow[place.start];
        covered = m_stacks.subtreeEnd[place.start];
    }
    return samples;
}

std::span<const CallNode> BottomUpTree::children(uint32_t node) const
{
    if (m_places[node].childrenMade)
        return {m_nodes.data() + m_nodes[node].firstChild, m_nodes[node].childCount};
    m_places[node].childrenMade = true;

    // The callers of the places' tops, one child per function, with their places (a place
    // whose top is an outermost frame goes nowhere); places keep their depth-first order.
    struct Child
    {
        CallNode node;
        NodePlaces places;
    };
    std::vector<Child> kids;
    for (const Place& place : placesOf(node)) {
        const uint32_t caller = m_stacks.caller[place.top];
        if (caller == kNoCallStack) continue;
        uint32_t& kid = m_childOfFunction[m_stacks.function[caller]];
        if (kid == kNoCallNode) {
            kid = uint32_t(kids.size());
            kids.push_back({{m_stacks.function[caller], node}, {}});
        }
        ++kids[kid].places.count;
        kids[kid].node.self += m_stacks.leafSamples[place.start];
    }
    // A chain of callers that no sample ends in is no node (its samples show under a shorter
    // one): such children get no places.
    std::vector<size_t> fill(kids.size());
    size_t placed = m_placeList.size();
    for (size_t k = 0; k < kids.size(); ++k) {
        if (kids[k].node.self == 0) continue;
        kids[k].places.first = fill[k] = placed;
        placed += kids[k].places.count;
    }
    const size_t parentFirst = m_places[node].first, parentEnd = parentFirst + m_places[node].count;
    m_placeList.resize(placed);
    for (size_t p = parentFirst; p < parentEnd; ++p) {
        const Place place = m_placeList[p];
        const uint32_t caller = m_stacks.caller[place.top];
        if (caller == kNoCallStack) continue;
        const uint32_t k = m_childOfFunction[m_stacks.function[caller]];
        if (kids[k].node.self == 0) continue;
        m_placeList[fill[k]++] = {place.start, caller};
        kids[k].places.hasCallers = kids[k].places.hasCallers
            || (m_stacks.leafSamples[place.start] > 0 && m_stacks.caller[caller] != kNoCallStack);
    }
    for (Child& kid : kids) {
        m_childOfFunction[kid.node.function] = kNoCallNode;
        if (kid.node.self > 0)
            kid.node.total = samplesUnder({m_placeList.data() + kid.places.first, kid.places.count});
    }
    std::erase_if(kids, [](const Child& kid) { return kid.node.self == 0; });
    std::sort(kids.begin(), kids.end(),
        [&](const Child& a, const Child& b) { return SiblingOrder {m_rank}(a.node, b.node); });

    m_nodes[node].firstChild = uint32_t(m_nodes.size());
    m_nodes[node].childCount = uint32_t(kids.size());
    for (const Child& kid : kids) {
        m_nodes.push_back(kid.node);
        m_places.push_back(kid.places);
    }
    return {m_nodes.data() + m_nodes[node].firstChild, m_nodes[node].childCount};
}

std::vector<char> BottomUpTree::markStacks(const std::vector<char>& functions) const
{
    // Callers are numbered below their callees, so one pass forward.
    std::vector<char> marked(m_stacks.size(), 0);
    for (uint32_t node = 0; node < m_stacks.size(); ++node) {
        const uint32_t caller = m_stacks.caller[node];
        marked[node] = functions[m_stacks.function[node]] || (caller != kNoCallStack && marked[caller]);
    }
    return marked;
}

bool BottomUpTree::callersHold(uint32_t node, const std::vector<char>& markedStacks) const
{
    // The node's descendants are the callers above the tops of the places samples end in.
    for (const Place& place : placesOf(node)) {
        const uint32_t caller = m_stacks.caller[place.top];
        if (m_stacks.leafSamples[place.start] > 0 && caller != kNoCallStack && markedStacks[caller])
            return true;
    }
    return false;
}

} // namespace sightline
