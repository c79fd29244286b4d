#include "model/stats/nvtx_projection_sum.h"

#include "model/derived/nvtx_projection.h"
#include "model/stats/grouped_values.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace sightline {
namespace {

// The instances of one (style, domain, text).
struct RangeGroup
{
    std::string name;
    NvtxStyle style = NvtxStyle::PushPop;
    std::vector<int64_t> projected; // each instance's projected duration
    int64_t rangeTime = 0; // the instances' own durations, summed
    uint64_t operations = 0;
    uint64_t levels = 0;
    uint64_t children = 0;
};

std::vector<StatsColumn> projectionColumns()
{
    return {{"Range", CellKind::Text, 0}, {"Style", CellKind::Text, 0},
        {"Total Proj Time (ns)", CellKind::Integer, 0}, {"Total Range Time (ns)", CellKind::Integer, 0},
        {"Range Instances", CellKind::Integer, 0}, {"Proj Avg (ns)", CellKind::Real, 1},
        {"Proj Med (ns)", CellKind::Real, 1}, {"Proj Min (ns)", CellKind::Integer, 0},
        {"Proj Max (ns)", CellKind::Integer, 0}, {"Proj StdDev (ns)", CellKind::Real, 1},
        {"Total GPU Ops", CellKind::Integer, 0}, {"Avg GPU Ops", CellKind::Real, 1},
        {"Avg Range Lvl", CellKind::Real, 1}, {"Avg Num Child", CellKind::Real, 1}};
}

} // namespace

StatsTable nvtxGpuProjectionSum(const Trace& trace, std::optional<TimeRange> range)
{
    StatsTable table;
    table.name = std::string(kNvtxGpuProjectionSum);
    table.title = "NVTX GPU Projection Summary";
    table.dataKind = "NVTX GPU projection";
    table.columns = projectionColumns();

    const std::vector<ProjectedRange> projected = projectNvtxRanges(trace);
    std::map<std::tuple<NvtxStyle, uint32_t, uint32_t>, RangeGroup> groups; // (style, domain, text)
    for (size_t i = 0; i < projected.size();) {
        // One instance: the range's projections onto every GPU, joined.
        const ProjectedRange& first = projected[i];
        TimeRange span = first.span;
        uint64_t operations = 0;
        for (; i < projected.size() && projected[i].range == first.range; ++i) {
            span = {std::min(span.start, projected[i].span.start), std::max(span.end, projected[i].span.end)};
            operations += projected[i].operations;
        }
        const Track& track = trace.track(first.range.track);
        const uint32_t index = first.range.index;
        if (span.empty() || (range && !range->contains(track.events.start[index]))) continue;
        const uint32_t detail = index < track.events.detail.size() ? track.events.detail[index] : ~0u;
        const NvtxAttributes attributes
            = detail < trace.nvtxAttributes.size() ? trace.nvtxAttributes[detail] : NvtxAttributes {};
        const StringId text = track.events.name[index];
        RangeGroup& group = groups[{attributes.style, attributes.domain.value, text.value}];
        if (group.projected.empty()) {
            group.name = nvtxRangeName(trace, attributes.domain, text);
            group.style = attributes.style;
        }
        group.projected.push_back(span.duration());
        group.rangeTime += track.events.end[index] - track.events.start[index];
        group.operations += operations;
        group.levels += first.level;
        group.children += first.children;
    }

    struct Row
    {
        RangeGroup* group;
        ValueSummary summary;
    };
    std::vector<Row> rows;
    for (auto& [key, group] : groups)
        rows.push_back({&group, summarize(group.projected)});
    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        if (a.summary.total != b.summary.total) return a.summary.total > b.summary.total;
        if (a.group->name != b.group->name) return a.group->name < b.group->name;
        return a.group->style < b.group->style;
    });
    for (const Row& row : rows) {
        const RangeGroup& g = *row.group;
        const ValueSummary& s = row.summary;
        const double instances = double(s.count);
        table.rows.push_back({g.name, std::string(label(g.style)), s.total, g.rangeTime, s.count, s.average,
            s.median, s.minimum, s.maximum, s.stdDev, int64_t(g.operations), double(g.operations) / instances,
            double(g.levels) / instances, double(g.children) / instances});
    }
    return table;
}

} // namespace sightline
