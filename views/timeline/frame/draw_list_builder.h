// Lays out one frame: for every lane of every row on screen, asks the model which events
// fall in the visible window and turns them into draw-list boxes and bars. A lane holding few
// events in the window (at most one per `kSparseColumnsPerEvent` pixels) is drawn event by
// event from a window query; a denser lane uses the level-of-detail query, one column per
// pixel: a column whose longest event spans at least two pixels becomes that event's box,
// every other column a bar as high as its busy fraction. Summary rows combine several tracks
// (busy: the busiest source; longest: the longest of all) without copying any event.
// Each distinct dense (track, lane) is summarised once per frame however many rows show it,
// from cached tiles (lod_tile_cache.h) when pixels are wide enough for them, so panning and
// zooming reuse work; otherwise from a direct level-of-detail query.
// Cost per frame: about O(lanes * (width + log n)), whatever the number of events.
// A panned frame can be laid out for a few pixel columns only (buildColumns): the lanes,
// their sources and their modes stay as the last build() chose them, so the new columns join
// the previous frame's pixels seamlessly (frame_scroll.h).
#pragma once

#include "views/timeline/frame/draw_list.h"
#include "views/timeline/frame/event_style.h"
#include "views/timeline/frame/lod_tile_cache.h"
#include "views/timeline/frame/thread_cpu_columns.h"
#include "views/timeline/rows/row_layout.h"

#include <memory>
#include <vector>

namespace sightline::views {

struct LaneSource
{
    TrackId track;
    uint32_t lane = 0;
    friend auto operator<=>(const LaneSource&, const LaneSource&) = default;
};

class DrawListBuilder
{
public:
    static constexpr double kSparseColumnsPerEvent = 3.0;
    static constexpr double kMinBoxPixels = 2.0;

    DrawListBuilder(const Trace& trace, const EventStyle& style);

    // Lays out the rows of `layout` overlapping [scrollY, scrollY + viewportHeight).
    void build(const RowTree& tree, const RowLayout& layout, const TimeScale& scale, int scrollY,
        int viewportHeight, DrawList& out);

    // Lays out only pixel columns [first, last) of a frame panned to `scale` (the duration and
    // width of the last build()'s), with the lanes, sources and modes build() chose. `out`
    // gets `frame`'s lanes (same geometry) holding only those columns' boxes and bars, in
    // `scale`'s coordinates.
    void buildColumns(const TimeScale& scale, int first, int last, const DrawList& frame, DrawList& out);
    // True when every lane of the last build() would be drawn the same way (event by event,
    // or from the level of detail) in the window `scale`: its columns may then join that frame.
    bool modesHold(const TimeScale& scale) const;

    // The lanes a row draws, as (track, lane) sources, for the given sub-row; used by the
    // builder and by hit testing, so both always agree.
    static void sourcesOf(
        const Trace& trace, const RowNode& node, uint32_t subRow, std::vector<LaneSource>& out);

    // The CPU samples whose ticks are drawn highlighted (null: none).
    void setSampleMarks(std::shared_ptr<const SampleMarks> marks) { m_sampleMarks = std::move(marks); }

    // Set to false to lay lanes out on the calling thread only (the benchmark compares both).
    void setParallel(bool parallel) { m_parallel = parallel; }
    // Set to false to query the model for every dense lane in every frame (no cached tiles).
    void setTiling(bool tiling);
    const LodTileCache& tiles() const { return m_tiles; }

private:
    enum class LaneMode : uint8_t { Empty, Exact, Dense };
    struct Job
    {
        size_t lane; // index into DrawList::lanes
        uint32_t sourceBegin; // into m_sources
        uint32_t sourceEnd;
        LaneMode mode;
    };
    // The pixel columns [first, last) of a frame: `frame` maps time to the lane's x, `window`
    // is the time those columns cover, as a scale of last - first pixels.
    struct Columns
    {
        const TimeScale& frame;
        TimeScale window;
        int first = 0;
    };
    LaneMode modeOf(const Job& job, const TimeScale& scale) const;
    // Phases 2 and 3 of a frame: the dense sources' columns, then every lane's boxes and bars.
    void layOutColumns(const Columns& columns, DrawList& out);
    // A counter row's area graph over the columns, scaled to the series' full range.
    void layOutCounter(const Columns& columns, LaneDraw& lane);
    double counterTop(uint32_t series);
    // A thread's CPU lane over the columns: its state strip, then its sample ticks.
    void layOutThreadCpu(const Columns& columns, LaneDraw& lane);
    void querySource(LaneSource source, const TimeScale& scale, SourceColumns& out) const;
    const SourceColumns& columnsOf(LaneSource source) const;
    void layOut(const Job& job, const Columns& columns, LaneDraw& lane) const;
    void layOutExact(const LaneSource* sources, size_t count, const Columns& columns, LaneDraw& lane) const;
    void layOutDense(const LaneSource* sources, size_t count, const Columns& columns, LaneDraw& lane) const;
    // Turns level-of-detail columns (`columnAt(c)` gives a MergedColumn) into boxes and bars.
    template <class ColumnAt>
    void emitColumns(size_t count, const Columns& columns, LaneDraw& lane, ColumnAt columnAt) const;

    const Trace& m_trace;
    const EventStyle& m_style;
    std::vector<LaneSource> m_sources;
    std::vector<Job> m_jobs;
    std::vector<LaneSource> m_denseSources; // sorted, distinct: drawn from the LOD
    std::vector<size_t> m_counterLanes; // the lanes of counter rows, in the draw list
    std::vector<CounterSummary> m_counterColumns;
    std::vector<double> m_counterTops; // per series: the value drawn at a lane's full height
    std::vector<size_t> m_cpuLanes; // the lanes of threads' CPU rows, in the draw list
    std::unique_ptr<ThreadCpuColumns> m_cpuIndex; // built when a CPU lane is first drawn
    std::vector<ThreadCpuColumn> m_cpuColumns;
    std::shared_ptr<const SampleMarks> m_sampleMarks;
    std::vector<SourceColumns> m_columnCache; // parallel to m_denseSources
    LodTileCache m_tiles;
    bool m_tiling = true;
    bool m_parallel = true;
};

} // namespace sightline::views
