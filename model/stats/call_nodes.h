// The pieces of the call trees (model/stats/call_tree.h): a function of the flat table, a node
// of a tree and the order of siblings.
#pragma once

#include "model/core/ids.h"

#include <cstdint>
#include <vector>

namespace sightline {

inline constexpr uint32_t kNoCallNode = UINT32_MAX;

struct CallFunction
{
    StringId name; // the frame's function; empty when unknown
    StringId module;
    bool unstacked = false; // the samples taken without a stack
    int64_t self = 0;
    int64_t total = 0;
};

// One node of a tree. The roots are nodes [0, rootCount); a node's children are the nodes
// [firstChild, firstChild + childCount), so a parent's index is below its children's.
struct CallNode
{
    uint32_t function = 0; // index into CallTrees::functions
    uint32_t parent = kNoCallNode;
    uint32_t firstChild = 0;
    uint32_t childCount = 0;
    int64_t self = 0;
    int64_t total = 0;
};

// How siblings stand in both trees: by total (largest first), self, then the `rank` of their
// function (its place by name and module).
struct SiblingOrder
{
    const std::vector<uint32_t>& rank;

    bool operator()(const CallNode& a, const CallNode& b) const
    {
        if (a.total != b.total) return a.total > b.total;
        if (a.self != b.self) return a.self > b.self;
        return rank[a.function] < rank[b.function];
    }
};

} // namespace sightline
