#include "views/timeline/frame/draw_list_builder.h"

#include "model/index/lod.h"

#include <QThreadPool>
#include <QtConcurrent/QtConcurrentMap>
#include <algorithm>
#include <cmath>
#include <numeric>
#include <optional>

namespace sightline::views {
namespace {

// One pixel column of a lane that combines one or more sources.
struct MergedColumn
{
    float busy = 0;
    uint32_t count = 0;
    EventRef longest;
    Duration longestDuration = -1;
    QRgb fill = 0;
};

// Per-thread scratch space for combining sources, reused from frame to frame.
std::vector<MergedColumn>& mergedScratch()
{
    thread_local std::vector<MergedColumn> merged;
    return merged;
}

} // namespace

DrawListBuilder::DrawListBuilder(const Trace& trace, const EventStyle& style)
    : m_trace(trace)
    , m_style(style)
    , m_tiles(trace, style)
{ }

void DrawListBuilder::setTiling(bool tiling)
{
    m_tiling = tiling;
    if (!tiling) m_tiles.clear();
}

void DrawListBuilder::sourcesOf(
    const Trace& trace, const RowNode& node, uint32_t subRow, std::vector<LaneSource>& out)
{
    switch (node.content()) {
    case RowContent::Lanes:
        out.push_back({node.tracks.front(), subRow});
        break;
    case RowContent::Merged:
    case RowContent::Utilization:
        for (TrackId id : node.tracks) {
            const uint32_t lanes = summaryLaneCount(trace.track(id));
            for (uint32_t l = 0; l < lanes; ++l)
                out.push_back({id, l});
        }
        break;
    case RowContent::Nothing:
    case RowContent::Counter:
    case RowContent::ThreadCpu:
        break;
    }
}

void DrawListBuilder::build(const RowTree& tree, const RowLayout& layout, const TimeScale& scale, int scrollY,
    int viewportHeight, DrawList& out)
{
    out.reset();
    out.scale = scale;
    out.scrollY = scrollY;
    out.width = int(scale.width());
    out.height = viewportHeight;
    m_sources.clear();
    m_jobs.clear();
    m_denseSources.clear();
    m_counterLanes.clear();
    m_cpuLanes.clear();

    // Phase 1: the lanes on screen, each with its sources and whether it is drawn dense.
    const int laneHeight = layout.laneHeight();
    const auto [first, last] = layout.rowsBetween(scrollY, scrollY + viewportHeight);
    for (size_t r = first; r < last; ++r) {
        const VisibleRow& row = layout.rows()[r];
        const RowNode& node = tree.node(row.node);
        const RowContent content = node.content();
        out.rows.push_back({row.node, row.top - scrollY, row.height, content, node.isGroup()});
        if (content == RowContent::Nothing) continue;
        if (content == RowContent::Counter) {
            if (row.top + row.height <= scrollY || row.top - scrollY >= viewportHeight) continue;
            m_counterLanes.push_back(out.laneCount);
            out.addLane(row.top - scrollY, row.height, true).counter = node.counter;
            continue;
        }
        if (content == RowContent::ThreadCpu) {
            if (row.top + row.height <= scrollY || row.top - scrollY >= viewportHeight) continue;
            m_cpuLanes.push_back(out.laneCount);
            LaneDraw& lane = out.addLane(row.top - scrollY, row.height, true);
            lane.threadCpu = true;
            lane.thread = node.thread;
            continue;
        }
        for (uint32_t sub = 0; sub < row.lanes; ++sub) {
            const int top = row.top + int(sub) * laneHeight - scrollY;
            if (top + laneHeight <= 0 || top >= viewportHeight) continue;
            Job job {out.laneCount, uint32_t(m_sources.size()), 0, LaneMode::Dense};
            sourcesOf(m_trace, node, sub, m_sources);
            job.sourceEnd = uint32_t(m_sources.size());
            out.addLane(top, laneHeight, content == RowContent::Utilization);
            job.mode = modeOf(job, scale);
            if (job.mode == LaneMode::Dense)
                m_denseSources.insert(
                    m_denseSources.end(), m_sources.begin() + job.sourceBegin, m_sources.end());
            m_jobs.push_back(job);
        }
    }

    std::sort(m_denseSources.begin(), m_denseSources.end());
    m_denseSources.erase(std::unique(m_denseSources.begin(), m_denseSources.end()), m_denseSources.end());
    layOutColumns(Columns {scale, scale, 0}, out);
}

void DrawListBuilder::buildColumns(
    const TimeScale& scale, int first, int last, const DrawList& frame, DrawList& out)
{
    out.reset();
    out.scale = scale;
    out.scrollY = frame.scrollY;
    out.width = frame.width;
    out.height = frame.height;
    for (size_t l = 0; l < frame.laneCount; ++l) {
        const LaneDraw& from = frame.lanes[l];
        LaneDraw& lane = out.addLane(from.top, from.height, from.utilization);
        lane.counter = from.counter;
        lane.threadCpu = from.threadCpu;
        lane.thread = from.thread;
    }
    first = std::max(first, 0);
    last = std::min(last, int(std::ceil(scale.width())));
    if (first >= last) return;
    const TimeScale window({scale.xToTime(first), scale.xToTime(last)}, last - first);
    layOutColumns(Columns {scale, window, first}, out);
}

void DrawListBuilder::layOutColumns(const Columns& columns, DrawList& out)
{
    // Phase 2: one summary per distinct source, however many rows show it (a kernel track
    // appears in its own row, its stream, [All Streams] and the GPU row): from cached tiles
    // when the pixels are wide enough for them, else from a direct level-of-detail query.
    if (m_columnCache.size() < m_denseSources.size()) m_columnCache.resize(m_denseSources.size());
    // The pool is worth it only with cores to spare: on two cores its hand-offs cost more than
    // they save (measured with bench_timeline). Computing new tiles pays off on two.
    const bool parallel
        = m_parallel && m_jobs.size() > 8 && QThreadPool::globalInstance()->maxThreadCount() >= 4;
    const TimeScale& window = columns.window;
    const int level = m_tiling ? LodTileCache::levelFor(window.nanosecondsPerPixel()) : -1;
    if (level >= 0) {
        for (const LaneSource& source : m_denseSources)
            m_tiles.request(source.track, source.lane, window.visible(), level);
        m_tiles.computeMissing(m_parallel && QThreadPool::globalInstance()->maxThreadCount() >= 2);
    }
    std::vector<size_t> sourceSlots(m_denseSources.size());
    std::iota(sourceSlots.begin(), sourceSlots.end(), size_t(0));
    auto query = [&](size_t slot) {
        const LaneSource source = m_denseSources[slot];
        if (level >= 0)
            m_tiles.fill(source.track, source.lane, window, level, m_columnCache[slot]);
        else
            querySource(source, window, m_columnCache[slot]);
    };
    if (parallel)
        QtConcurrent::blockingMap(sourceSlots, query);
    else
        std::for_each(sourceSlots.begin(), sourceSlots.end(), query);
    m_tiles.endFrame();

    // Phase 3: each lane's boxes and bars.
    auto run = [&](const Job& job) { layOut(job, columns, out.lanes[job.lane]); };
    if (parallel)
        QtConcurrent::blockingMap(m_jobs, run);
    else
        std::for_each(m_jobs.begin(), m_jobs.end(), run);
    for (size_t lane : m_counterLanes)
        layOutCounter(columns, out.lanes[lane]);
    for (size_t lane : m_cpuLanes)
        layOutThreadCpu(columns, out.lanes[lane]);
}

double DrawListBuilder::counterTop(uint32_t series)
{
    if (m_counterTops.size() != m_trace.counterSeries.size())
        m_counterTops.assign(m_trace.counterSeries.size(), std::nan(""));
    double& top = m_counterTops[series];
    if (std::isnan(top)) {
        // Percentages fill the lane at 100 (CPU utilization at the whole cores the process
        // used at most: 400% for four); other units at the series' largest value.
        const CounterSeries& s = m_trace.counterSeries[series];
        const CounterTimeline& timeline = m_trace.timelineOf(s);
        const CounterSummary all = m_trace.counterSummary(
            series, {timeline.starts.empty() ? 0 : timeline.starts.front(), timeline.end});
        const double largest = all.empty() || !(all.max > 0) ? 0.0 : all.max;
        if (s.source == CounterSource::CpuUtilization)
            top = 100.0 * std::max(1.0, std::ceil(largest / 100.0 - 1e-9));
        else
            top = s.unit == "%" ? 100.0 : (largest > 0 ? largest : 1.0);
    }
    return top;
}

void DrawListBuilder::layOutCounter(const Columns& columns, LaneDraw& lane)
{
    if (lane.counter >= m_trace.counterSeries.size()) return;
    const size_t pixels = size_t(std::max(1.0, std::ceil(columns.window.width())));
    m_counterColumns.assign(pixels, CounterSummary {});
    m_trace.counterLod(lane.counter, columns.window.visible(), m_counterColumns);
    const double top = counterTop(lane.counter);
    const int inner = laneInnerHeight(lane.height);
    const QRgb fill = m_style.counterColor(m_trace.counterSeries[lane.counter]);
    const QRgb spread
        = qRgb((qRed(fill) + 2 * 255) / 3, (qGreen(fill) + 2 * 255) / 3, (qBlue(fill) + 2 * 255) / 3);
    auto toPixels
        = [&](double value) { return uint16_t(std::clamp(int(std::lround(value / top * inner)), 0, inner)); };
    for (size_t c = 0; c < pixels; ++c) {
        const CounterSummary& column = m_counterColumns[c];
        if (column.empty()) continue;
        const uint16_t x = uint16_t(columns.first + int(c));
        const uint16_t low = toPixels(column.min), high = toPixels(column.max);
        // A value above zero shows at least a pixel.
        const uint16_t mean = std::max<uint16_t>(column.max > 0 ? 1 : 0, toPixels(column.mean()));
        if (high > mean) {
            DrawBand* last = lane.bands.empty() ? nullptr : &lane.bands.back();
            if (last && last->x + last->width == x && last->low == low && last->high == high)
                ++last->width;
            else
                lane.bands.push_back({x, 1, low, high, spread});
        }
        if (mean == 0) continue;
        DrawBar* last = lane.bars.empty() ? nullptr : &lane.bars.back();
        if (last && last->x + last->width == x && last->height == mean)
            ++last->width;
        else
            lane.bars.push_back({x, 1, mean, fill});
    }
}

void DrawListBuilder::layOutThreadCpu(const Columns& columns, LaneDraw& lane)
{
    if (!m_cpuIndex) m_cpuIndex = std::make_unique<ThreadCpuColumns>(m_trace.cpu);
    const size_t pixels = size_t(std::max(1.0, std::ceil(columns.window.width())));
    m_cpuColumns.resize(pixels);
    m_cpuIndex->fill(lane.thread, columns.window, m_sampleMarks.get(), m_cpuColumns);
    const ThreadCpuBands bands = threadCpuBands(lane.height);
    auto append = [&](size_t c, int low, int high, QRgb fill) {
        const auto x = uint16_t(columns.first + int(c));
        DrawBand* last = lane.bands.empty() ? nullptr : &lane.bands.back();
        if (last && last->x + last->width == x && last->low == low && last->high == high
            && last->fill == fill)
            ++last->width;
        else
            lane.bands.push_back({x, 1, uint16_t(low), uint16_t(high), fill});
    };
    for (size_t c = 0; c < pixels; ++c)
        if (m_cpuColumns[c].state != kNoThreadState)
            append(c, bands.stripLow, bands.stripHigh,
                m_style.threadStateColor(ThreadState(m_cpuColumns[c].state)));

    // A tick is as tall as the share of the column's sampling periods that took a sample:
    // zoomed in, every sample is a whole tick; zoomed out, the column shows the density.
    const Duration period = m_trace.cpu.samplingPeriod;
    const double columnTime = std::max(1.0, columns.window.nanosecondsPerPixel());
    const double perSample = period > 0 ? double(period) / columnTime : 1.0;
    const int tall = bands.tickHigh - bands.tickLow;
    auto height = [&](uint32_t samples) {
        return std::clamp(int(std::lround(std::min(1.0, samples * perSample) * tall)), 1, tall);
    };
    if (tall <= 0) return;
    for (size_t c = 0; c < pixels; ++c)
        if (m_cpuColumns[c].samples > 0)
            append(c, bands.tickLow, bands.tickLow + height(m_cpuColumns[c].samples),
                m_style.sampleTickColor(false));
    for (size_t c = 0; c < pixels; ++c)
        if (m_cpuColumns[c].highlighted > 0)
            append(c, bands.tickLow, bands.tickLow + height(m_cpuColumns[c].highlighted),
                m_style.sampleTickColor(true));
}

bool DrawListBuilder::modesHold(const TimeScale& scale) const
{
    return std::all_of(
        m_jobs.begin(), m_jobs.end(), [&](const Job& job) { return modeOf(job, scale) == job.mode; });
}

DrawListBuilder::LaneMode DrawListBuilder::modeOf(const Job& job, const TimeScale& scale) const
{
    size_t inWindow = 0;
    for (uint32_t s = job.sourceBegin; s < job.sourceEnd; ++s)
        inWindow += m_trace.windowEvents(m_sources[s].track, m_sources[s].lane, scale.visible()).size();
    if (inWindow == 0) return LaneMode::Empty;
    return double(inWindow) * kSparseColumnsPerEvent <= scale.width() ? LaneMode::Exact : LaneMode::Dense;
}

void DrawListBuilder::querySource(LaneSource source, const TimeScale& scale, SourceColumns& out) const
{
    out.resize(size_t(std::max(1.0, std::ceil(scale.width()))));
    const Track& track = m_trace.track(source.track);
    if (source.lane >= track.laneCount()) return;
    m_trace.laneLod(source.track, source.lane, scale.visible(), out.lod);
    out.describe(track, m_style);
}

const SourceColumns& DrawListBuilder::columnsOf(LaneSource source) const
{
    const auto it = std::lower_bound(m_denseSources.begin(), m_denseSources.end(), source);
    return m_columnCache[size_t(it - m_denseSources.begin())];
}

void DrawListBuilder::layOut(const Job& job, const Columns& columns, LaneDraw& lane) const
{
    const LaneSource* sources = m_sources.data() + job.sourceBegin;
    const size_t count = job.sourceEnd - job.sourceBegin;
    if (job.mode == LaneMode::Exact)
        layOutExact(sources, count, columns, lane);
    else if (job.mode == LaneMode::Dense)
        layOutDense(sources, count, columns, lane);
    // Boxes are painted in event order, so where two overlap (a lane of several tracks) the
    // same one is on top however the list was put together.
    if (!std::is_sorted(lane.boxes.begin(), lane.boxes.end(), drawnBefore))
        std::sort(lane.boxes.begin(), lane.boxes.end(), drawnBefore);
}

void DrawListBuilder::layOutExact(
    const LaneSource* sources, size_t count, const Columns& columns, LaneDraw& lane) const
{
    const TimeScale& scale = columns.frame;
    const double width = scale.width();
    for (size_t s = 0; s < count; ++s) {
        const Track& track = m_trace.track(sources[s].track);
        const IndexRange window
            = m_trace.windowEvents(sources[s].track, sources[s].lane, columns.window.visible());
        double coveredUntil = -1e9; // right edge of the last box: thin events behind it fold in
        for (uint32_t i = window.begin; i < window.end; ++i) {
            double x0 = scale.timeToX(track.events.start[i]);
            double x1 = scale.timeToX(track.events.end[i]);
            if (x1 - x0 < 1.0) {
                if (x0 < coveredUntil) continue;
                x0 = std::floor(std::max(x0, 0.0)); // it overlaps the window, so show it inside
                x1 = x0 + 1.0;
            }
            coveredUntil = x1;
            lane.boxes.push_back({clipBoxX(x0, width), clipBoxX(x1, width), m_style.color(track, i),
                EventRef {sources[s].track, i}});
        }
    }
}

void DrawListBuilder::layOutDense(
    const LaneSource* sources, size_t count, const Columns& columns, LaneDraw& lane) const
{
    const size_t pixels = size_t(std::max(1.0, std::ceil(columns.window.width())));
    if (count == 1) {
        // One source (most lanes): read its columns in place.
        const SourceColumns& from = columnsOf(sources[0]);
        const TrackId id = sources[0].track;
        emitColumns(std::min(pixels, from.lod.size()), columns, lane, [&](size_t c) {
            return MergedColumn {from.lod[c].busy, from.lod[c].count, EventRef {id, from.lod[c].longest},
                from.longestDuration[c], from.fill[c]};
        });
        return;
    }
    std::vector<MergedColumn>& merged = mergedScratch();
    merged.assign(pixels, MergedColumn {});
    for (size_t s = 0; s < count; ++s) {
        const TrackId id = sources[s].track;
        const SourceColumns& from = columnsOf(sources[s]);
        for (size_t c = 0; c < pixels && c < from.lod.size(); ++c) {
            const LodColumn& column = from.lod[c];
            if (column.count == 0) continue;
            MergedColumn& to = merged[c];
            to.busy = std::max(to.busy, column.busy);
            to.count += column.count;
            if (from.longestDuration[c] > to.longestDuration) {
                to.longestDuration = from.longestDuration[c];
                to.longest = EventRef {id, column.longest};
                to.fill = from.fill[c];
            }
        }
    }
    emitColumns(pixels, columns, lane, [&](size_t c) -> const MergedColumn& { return merged[c]; });
}

template <class ColumnAt>
void DrawListBuilder::emitColumns(
    size_t count, const Columns& columns, LaneDraw& lane, ColumnAt columnAt) const
{
    const TimeScale& scale = columns.frame;
    const int inner = laneInnerHeight(lane.height);
    const double width = scale.width();
    std::optional<EventRef> lastBox;
    for (size_t c = 0; c < count; ++c) {
        const MergedColumn column = columnAt(c);
        if (column.count == 0) continue;
        const QRgb fill = column.fill;
        const int x = columns.first + int(c); // the frame's pixel column
        // Only an event at least kMinBoxPixels wide becomes a box: decided from its duration,
        // so the (cold) event columns are read for boxes only.
        if (!lane.utilization && scale.durationToWidth(column.longestDuration) >= kMinBoxPixels) {
            if (lastBox == column.longest) {
                if (column.count == 1) continue;
            } else {
                const Track& track = m_trace.track(column.longest.track);
                const double x0 = scale.timeToX(track.events.start[column.longest.index]);
                const double x1 = scale.timeToX(track.events.end[column.longest.index]);
                if (x1 - x0 >= kMinBoxPixels) {
                    lane.boxes.push_back({clipBoxX(x0, width), clipBoxX(x1, width), fill, column.longest});
                    lastBox = column.longest;
                    // Columns the box covers entirely need nothing more. A box that began
                    // left of the first column laid out (a panned frame's new columns) and
                    // ends in this one leaves it to be drawn as the column after a box is.
                    const double next = std::floor(std::min(x1, width)) - columns.first;
                    const bool beganBefore = x0 < double(x);
                    if (!beganBefore || next > double(c)) {
                        if (next > double(c) + 1) c = size_t(next) - 1;
                        continue;
                    }
                    if (column.count == 1) continue;
                }
            }
        }
        const uint16_t height = uint16_t(std::max(1, int(double(column.busy) * inner + 0.5)));
        if (!lane.bars.empty()) {
            DrawBar& last = lane.bars.back();
            if (last.x + last.width == x && last.height == height && last.fill == fill) {
                ++last.width;
                continue;
            }
        }
        lane.bars.push_back({uint16_t(x), 1, height, fill});
    }
}

} // namespace sightline::views
