#include "model/stats/call_tree.h"

#include <algorithm>
#include <numeric>

namespace sightline {
namespace {

// Makes the children of one tree node, or the roots, from the stack nodes that `candidates`
// lists (it calls its argument with each): one child per function, children in SiblingOrder,
// each child's stack nodes appended to `members` together.
class ChildMaker
{
public:
    ChildMaker(const SampledStacks& stacks, size_t functionCount, const std::vector<uint32_t>& rank)
        : m_stacks(stacks)
        , m_rank(rank)
        , m_childOf(functionCount, kNoCallNode)
    { }

    template <class Candidates>
    void make(uint32_t parent, Candidates candidates, std::span<const CallNode> extra, CallTree& tree,
        std::vector<uint32_t>& members, std::vector<uint32_t>& firstMember)
    {
        m_kids.assign(extra.begin(), extra.end());
        m_memberCount.assign(extra.size(), 0);
        candidates([&](uint32_t node) {
            uint32_t& kid = m_childOf[m_stacks.function[node]];
            if (kid == kNoCallNode) {
                kid = uint32_t(m_kids.size());
                m_kids.push_back({m_stacks.function[node], parent});
                m_memberCount.push_back(0);
            }
            m_kids[kid].self += m_stacks.leafSamples[node];
            m_kids[kid].total += m_stacks.samplesBelow[node];
            ++m_memberCount[kid];
        });
        m_order.resize(m_kids.size());
        std::iota(m_order.begin(), m_order.end(), 0);
        std::sort(m_order.begin(), m_order.end(),
            [&](uint32_t a, uint32_t b) { return SiblingOrder {m_rank}(m_kids[a], m_kids[b]); });
        m_fill.resize(m_kids.size());
        for (const uint32_t kid : m_order) {
            m_fill[kid] = uint32_t(members.size());
            firstMember.push_back(uint32_t(members.size()));
            members.resize(members.size() + m_memberCount[kid]);
            tree.nodes.push_back(m_kids[kid]);
        }
        candidates([&](uint32_t node) { members[m_fill[m_childOf[m_stacks.function[node]]]++] = node; });
        for (const CallNode& kid : m_kids)
            m_childOf[kid.function] = kNoCallNode;
    }

private:
    const SampledStacks& m_stacks;
    const std::vector<uint32_t>& m_rank;
    std::vector<uint32_t> m_childOf; // per function: its place in m_kids, while making
    std::vector<CallNode> m_kids;
    std::vector<uint32_t> m_memberCount;
    std::vector<uint32_t> m_order;
    std::vector<uint32_t> m_fill;
};

} // namespace

CallTree topDownTree(const CallTrees& trees, const std::atomic<bool>* cancel)
{
    const SampledStacks& stacks = trees.bottomUp.stacks();
    const std::span<const CallFunction> functions = trees.functions;
    CallTree tree;
    std::vector<uint32_t> members; // the stack nodes of each tree node, together
    std::vector<uint32_t> firstMember; // per tree node, into members; the next node's ends it
    ChildMaker maker(stacks, functions.size(), trees.bottomUp.rank());

    std::vector<CallNode> unstacked;
    for (uint32_t f = 0; f < functions.size(); ++f)
        if (functions[f].unstacked && functions[f].self > 0)
            unstacked.push_back({f, kNoCallNode, 0, 0, functions[f].self, functions[f].self});
    // The outermost frames follow one another, each after the subtree of the one before.
    maker.make(
        kNoCallNode,
        [&](auto visit) {
            for (uint32_t node = 0; node < stacks.size(); node = stacks.subtreeEnd[node])
                visit(node);
        },
        unstacked, tree, members, firstMember);
    tree.rootCount = uint32_t(tree.nodes.size());

    // Each node's children are made together, so they lie side by side; the nodes are visited
    // depth first, which reads the stack nodes (numbered depth first) in about their order.
    // The unstacked root has no members (an empty place in members), so no children.
    std::vector<uint32_t> pending(tree.rootCount);
    std::iota(pending.rbegin(), pending.rend(), 0);
    for (uint32_t made = 0; !pending.empty(); ++made) {
        if (made % 4096 == 0 && cancel && cancel->load(std::memory_order_relaxed)) return {};
        const uint32_t n = pending.back();
        pending.pop_back();
        const uint32_t first = firstMember[n];
        const uint32_t end = n + 1 < firstMember.size() ? firstMember[n + 1] : uint32_t(members.size());
        tree.nodes[n].firstChild = uint32_t(tree.nodes.size());
        maker.make(
            n,
            [&](auto visit) {
                for (uint32_t m = first; m < end; ++m)
                    for (uint32_t callee = members[m] + 1; callee < stacks.subtreeEnd[members[m]];
                         callee = stacks.subtreeEnd[callee])
                        visit(callee);
            },
            {}, tree, members, firstMember);
        tree.nodes[n].childCount = uint32_t(tree.nodes.size()) - tree.nodes[n].firstChild;
        for (uint32_t child = uint32_t(tree.nodes.size()); child-- > tree.nodes[n].firstChild;)
            pending.push_back(child);
    }
    return tree;
}

} // namespace sightline
