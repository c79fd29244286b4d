// The timeline's row hierarchy, built once per trace the way Nsight Systems lays it out:
//   CUDA HW (bus - GPU name) > NVTX (projected), [All Streams], Context N > "NN.N% Stream S" >
//     Kernels, Memory, Synchronization;
//   Processes (N) > "name [pid]" > CPU Utilization, the process's own counters (a trace's "C"
//     events), "name [tid]" > CUDA API, NVTX (per domain), OS runtime libraries.
// Only data that exists gets a row. Each node says what it draws when expanded and when
// collapsed: a leaf track draws its lanes; a collapsed group draws a merged or utilization
// summary of the tracks below it, so collapsing never hides data, only detail. A process with
// CPU data shows its CPU Utilization when collapsed; a thread with CPU samples or states (a
// row even without events) draws its state strip and sample ticks in its own row, expanded or
// collapsed: what it did on the CPU summarises it best.
// Invariant: node indices are stable for the tree's life; parents precede their children.
#pragma once

#include "model/trace/trace.h"

#include <QString>
#include <vector>

namespace sightline::views {

enum class RowKind : uint8_t {
    Gpu,
    AllStreams,
    Context,
    Stream,
    Kernels,
    Memory,
    Synchronization,
    Processes,
    Process,
    Thread,
    CudaApi,
    Nvtx,
    OsRuntime,
    GpuMetrics, // the group of a GPU's counter series
    Counter, // one counter series, drawn as an area graph
    NvtxProjection, // NVTX ranges projected onto a GPU: a derived track (projected_nvtx_tracks.h)
};

enum class RowContent : uint8_t {
    Nothing, // a group header while expanded
    Lanes, // one track, one sub-row per lane (nesting depth)
    Merged, // several tracks' events drawn in one lane
    Utilization, // busy fraction per pixel column of several tracks
    Counter, // one counter series (RowNode::counter) as an area graph
    ThreadCpu, // a thread's CPU profile (RowNode::thread): state strip and sample ticks
};

constexpr uint32_t kNoCounter = ~0u;
// Lanes (of the layout's lane height) a counter row is tall.
constexpr uint32_t kCounterRowLanes = 2;

struct RowNode
{
    RowKind kind = RowKind::Processes;
    QString label;
    int parent = -1;
    int depth = 0;
    std::vector<int> children;
    bool expanded = false;
    std::vector<TrackId> tracks; // Lanes: the one track; summaries: the tracks summarised
    uint32_t counter = kNoCounter; // Counter: the series (Trace::counterSeries), expanded or not
    Tid thread; // ThreadCpu: the thread whose CPU profile (Trace::cpu) is drawn
    RowContent whenExpanded = RowContent::Nothing;
    RowContent whenCollapsed = RowContent::Nothing;

    bool isGroup() const { return !children.empty(); }
    RowContent content() const { return isGroup() && expanded ? whenExpanded : whenCollapsed; }
};

class RowTree
{
public:
    static RowTree build(const Trace& trace);

    const std::vector<RowNode>& nodes() const { return m_nodes; }
    const RowNode& node(int index) const { return m_nodes[size_t(index)]; }
    const std::vector<int>& roots() const { return m_roots; }
    size_t size() const { return m_nodes.size(); }

    void setExpanded(int node, bool expanded);
    void setAllExpanded(bool expanded);
    // Expands every ancestor of `node` so that it is shown.
    void reveal(int node);
    bool isShown(int node) const;

    // The leaf row that draws `track` lane by lane, or -1.
    int leafOf(TrackId track) const;
    // The stored tracks of `node` and of every row below it, each once, in track order (what
    // "Show in Events View" lists for a row; derived tracks have no place there).
    std::vector<TrackId> tracksBelow(int node) const;
    // The first label match (exact), or -1; for tests and scripted navigation.
    int find(const QString& label) const;

private:
    struct Places;
    void addGpuRows(const Trace& trace, Places& places);
    void addHostRows(const Trace& trace, Places& places);
    int add(RowNode node, int parent);
    // The GPU's "NVTX (projected)" rows, from the trace's projected NVTX tracks.
    void addProjectionRows(const Trace& trace, DeviceId device, int gpuIndex);

    std::vector<RowNode> m_nodes;
    std::vector<int> m_roots;
    std::vector<int> m_leafOfTrack; // by track id
    size_t m_storedTracks = 0; // Trace::tracks: the ids below are stored tracks, the others derived
};

// Lanes drawn for `track` in a summary row: every lane of a freely overlapping track, only
// the outermost of a nested one (it encloses the others).
uint32_t summaryLaneCount(const Track& track);

} // namespace sightline::views
