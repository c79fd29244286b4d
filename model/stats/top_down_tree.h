// The top-down call tree (model/stats/call_tree.h) over the sampled stacks: a node stands for the stack nodes
// whose path from the outermost frame has its functions, so its children group the callees of those stack
// nodes by function. Each stack node joins one tree node, and grouping by function goes through a flat array,
// so the tree costs O(stack nodes) with no hashing.
#pragma once

#include "model/stats/bottom_up_tree.h"

#include <span>

namespace sightline {

struct CallTree;

// The tree of `stacks`, which number functions as `functions` does (the samples without a stack
// are the root of the function marked `unstacked`); siblings stand by SiblingOrder over `rank`.
CallTree topDownTree(
    const SampledStacks& stacks, std::span<const CallFunction> functions, const std::vector<uint32_t>& rank);

} // namespace sightline
