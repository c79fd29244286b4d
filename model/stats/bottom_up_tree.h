// The bottom-up call tree (model/stats/call_tree.h), grown on demand. Its roots, the leaf
// functions with their own numbers, are made with the trees; a node's children, its callers,
// only when first asked for, so that the table of 10M samples over 200,000 distinct stacks opens
// at once instead of expanding every chain of callers of every leaf (O(stack nodes x depth)).
//
// A node is a chain of functions, leaf first. It keeps the places where its chain lies on the
// sampled stacks: pairs (start, top) of stack nodes, where the chain's leaf function sits at
// `start` and its last caller at `top`. Its children group those places by the function that
// calls `top`, so making them costs O(places). `self` sums the samples whose stack ends at a
// `start`, `total` the samples under the outermost starts (those below no other start of the
// same chain), which the depth-first numbering of the stack nodes tells in one sweep.
//
// The tree grows behind const: a tree shared read-only grows as it is read, one thread at a time.
#pragma once

#include "model/core/cpu_profile.h"
#include "model/stats/call_nodes.h"

#include <atomic>
#include <cstdint>
#include <span>
#include <vector>

namespace sightline {

// The stack nodes that hold samples, numbered depth first: the subtree of node n, the stacks
// that pass through it, is the nodes [n, subtreeEnd[n]), and a caller's number is below its
// callees'.
struct SampledStacks
{
    std::vector<uint32_t> caller; // kNoCallStack at the outermost frame
    std::vector<uint32_t> function; // the node's function
    std::vector<int64_t> leafSamples; // the samples whose stack ends at the node
    std::vector<int64_t> samplesBelow; // those whose stack passes through it
    std::vector<uint32_t> subtreeEnd;

    size_t size() const { return caller.size(); }
};

// The caller of stack node `node`, or kNoCallStack. A parent that does not lie below its child
// (damaged input) ends the stack, so every walk up ends.
uint32_t callerOf(const CpuProfile& cpu, uint32_t node);

// The sampled part of `cpu`'s stack tree: `functionOf` numbers each stack node's function,
// `leafSamples` counts the samples per leaf stack node. Returns nothing when cancelled.
SampledStacks sampledStacks(const CpuProfile& cpu, const std::vector<uint32_t>& functionOf,
    const std::vector<int64_t>& leafSamples, const std::atomic<bool>* cancel);

// Per function (of `functionCount`), the samples whose stack holds it, each counted once.
std::vector<int64_t> functionTotals(const SampledStacks& stacks, size_t functionCount);

class BottomUpTree
{
public:
    BottomUpTree() = default;
    // The roots: one per function of `functions` with self samples, ordered like every list of
    // children, by total (largest first), self, then `rank` (per function). `stacks` number
    // functions as `functions` does.
    BottomUpTree(SampledStacks stacks, std::span<const CallFunction> functions, std::vector<uint32_t> rank);

    uint32_t rootCount() const { return m_rootCount; }
    // What the tree was made from; never changed afterwards, so other threads may read them.
    const SampledStacks& stacks() const { return m_stacks; }
    const std::vector<uint32_t>& rank() const { return m_rank; }
    std::span<const CallNode> roots() const;
    const CallNode& node(uint32_t node) const;
    // The nodes made so far: the roots, then the children of each node asked for.
    size_t nodeCount() const;
    // A node's position among its siblings.
    uint32_t row(uint32_t node) const;

    // Whether the node has callers to list (known without making them).
    bool hasChildren(uint32_t node) const { return m_places[node].hasCallers; }
    bool childrenMade(uint32_t node) const { return m_places[node].childrenMade; }
    // The node's children, its callers: made on the first call, O(the node's places). The span
    // (like a node reference) holds until the tree grows again.
    std::span<const CallNode> children(uint32_t node) const;

    // For filtering without growing the tree: `markStacks` marks, per sampled stack node, whether
    // a function of `functions` (a mark per function) sits at it or any caller above it;
    // `callersHold` says whether any chain that extends the node reaches a marked function.
    std::vector<char> markStacks(const std::vector<char>& functions) const;
    bool callersHold(uint32_t node, const std::vector<char>& markedStacks) const;

private:
    struct Place
    {
        uint32_t start;
        uint32_t top;
    };
    struct NodePlaces
    {
        size_t first = 0; // into m_placeList
        size_t count = 0;
        bool hasCallers = false;
        bool childrenMade = false;
    };
    // The samples under the outermost starts of `places` (in depth-first order of start).
    int64_t samplesUnder(std::span<const Place> places) const;
    std::span<const Place> placesOf(uint32_t node) const;

    SampledStacks m_stacks;
    std::vector<uint32_t> m_rank;
    uint32_t m_rootCount = 0;
    mutable std::vector<CallNode> m_nodes;
    mutable std::vector<NodePlaces> m_places; // per node
    mutable std::vector<Place> m_placeList;
    mutable std::vector<uint32_t> m_childOfFunction; // scratch while making children
};

} // namespace sightline
