// Call trees over the CPU samples of a trace (Trace::cpu), the three ways KDAB Hotspot and
// Nsight Systems show them: a top-down tree (roots are the outermost frames, children the
// functions they called), a bottom-up tree (roots are the leaf functions, children their
// callers) and a flat table of functions.
//
// A node stands for a function, its name and module, never an address: frames that differ only
// in offset share it. Numbers count samples of the scope (a time range, a set of threads):
// `self` the samples whose stack ends in the node, `total` those whose stack passes through
// it, each sample counted once even where a function recurses. A top-down node is a call path
// from a root. A bottom-up node is a function with a chain of callers: its `self` counts the
// samples where the root function is the leaf and was called through that chain, its `total`
// the samples whose stack holds the chain anywhere (a root's numbers are its function's).
// Samples without a stack count under the function "[no call stack]", so that shares add up.
//
// Cost: one pass counts the scope's samples per leaf stack node in a flat array; a few passes
// over the sampled stack nodes then make the flat table and the bottom-up roots, so the samples
// cost O(samples) and the tables O(stack nodes). The bottom-up tree grows as its nodes are
// opened (bottom_up_tree.h). The top-down tree is made apart (`topDownTree`), so that the
// bottom-up table shows before it: 10M samples over 200,000 distinct stacks (4.9 million stack
// nodes) make the bottom-up table in about half the time of the whole top-down tree
// (bench_call_tree).
// Children are listed by total, largest first, then by self, name and module.
#pragma once

#include "model/core/time.h"
#include "model/stats/bottom_up_tree.h"
#include "model/stats/call_nodes.h"
#include "model/trace/trace.h"

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace sightline {

// Which samples count: those with time in `range` on one of `threads` (no value: all).
struct CallScope
{
    std::optional<TimeRange> range;
    std::optional<std::vector<Tid>> threads;
};

// A tree laid out whole (the top-down one): each node's children follow one another.
struct CallTree
{
    std::vector<CallNode> nodes;
    uint32_t rootCount = 0;

    std::span<const CallNode> roots() const { return {nodes.data(), rootCount}; }
    std::span<const CallNode> children(const CallNode& node) const
    {
        return {nodes.data() + node.firstChild, node.childCount};
    }
    // A node's position among its siblings.
    uint32_t row(uint32_t node) const
    {
        const uint32_t parent = nodes[node].parent;
        return parent == kNoCallNode ? node : node - nodes[parent].firstChild;
    }
};

// The flat table and the bottom-up tree; the top-down tree comes from `topDownTree`.
struct CallTrees
{
    int64_t samples = 0; // every sample in scope
    std::vector<CallFunction> functions; // the flat table: by self, largest first, then by total
    BottomUpTree bottomUp; // grows as it is read

    // A count as a share of the samples in scope, 0..100.
    double percent(int64_t count) const
    {
        return samples > 0 ? 100.0 * double(count) / double(samples) : 0.0;
    }
};

// The table and the bottom-up tree over the scope's samples. When `cancel` becomes true the
// work stops early and returns empty trees.
CallTrees computeCallTrees(
    const Trace& trace, const CallScope& scope = {}, const std::atomic<bool>* cancel = nullptr);

// The top-down tree of the same samples (top_down_tree.cpp): a node stands for the stack nodes
// whose path from the outermost frame has its functions, so its children group the callees of
// those stack nodes by function, through a flat array, in O(stack nodes) with no hashing. It
// reads only what `trees` never changes, so it may run on another thread while the bottom-up
// tree grows on one. Cancelled: an empty tree.
CallTree topDownTree(const CallTrees& trees, const std::atomic<bool>* cancel = nullptr);

// The function's name as shown: "[no call stack]" and "[unknown]" for the unnamed ones.
std::string_view functionName(const Trace& trace, const CallFunction& function);
std::string_view moduleName(const Trace& trace, const CallFunction& function);

// The samples of a function, as the sorted stack ids (CpuSample::stack) of the samples that
// have it anywhere on their stack, or as their leaf with `leafOnly`. A sample belongs to the
// function when its stack is in the list; for "[no call stack]" the list is {kNoCallStack}.
std::vector<uint32_t> stacksWithFunction(const Trace& trace, const CallFunction& function, bool leafOnly);

} // namespace sightline
