#include "model/stats/stats_engine.h"

#include "model/common/parallel_for.h"
#include "model/derived/nvtx_projection.h"
#include "model/stats/call_tree.h"
#include "model/stats/grouped_values.h"
#include "model/trace/event_access.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <unordered_map>

namespace sightline {
namespace {

constexpr uint32_t kNoGroup = ~0u;

// Dense group numbers for (class, name) keys, handed out in order of first sight. The class
// keeps apart groups that share a name (an NVTX range's style and domain); reports grouped
// by name alone use class 0. Lookups are one array access: one slot per interned string.
class GroupNumbering
{
public:
    struct Key
    {
        uint32_t cls = 0;
        StringId name;
    };

    explicit GroupNumbering(size_t stringCount)
        : m_stringCount(stringCount)
    { }

    uint32_t groupOf(uint32_t cls, StringId name)
    {
        if (cls >= m_slots.size()) m_slots.resize(size_t(cls) + 1);
        std::vector<uint32_t>& slots = m_slots[cls];
        if (slots.empty()) slots.assign(m_stringCount, kNoGroup);
        const uint32_t index = name.value < m_stringCount ? name.value : 0;
        uint32_t& slot = slots[index];
        if (slot == kNoGroup) {
            slot = uint32_t(m_keys.size());
            m_keys.push_back({cls, StringId(index)});
        }
        return slot;
    }

    const Key& key(uint32_t group) const { return m_keys[group]; }

private:
    size_t m_stringCount;
    std::vector<std::vector<uint32_t>> m_slots; // per class, per string
    std::vector<Key> m_keys; // per group
};

// One lane's events whose start lies in the range.
struct EventSpan
{
    const Track* track;
    IndexRange events;
};

std::vector<EventSpan> eventsStartingIn(
    const Trace& trace, TrackKind kind, const std::optional<TimeRange>& range)
{
    std::vector<EventSpan> spans;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        const Track& track = trace.tracks[t];
        if (track.key.kind != kind) continue;
        for (uint32_t lane = 0; lane < track.laneCount(); ++lane) {
            const IndexRange events = trace.eventsStartingIn(TrackId(t), lane, range);
            if (!events.empty()) spans.push_back({&track, events});
        }
    }
    return spans;
}

// The two passes of GroupedValues over every event of `kind` starting in the range.
// groupOf(track, i) gives an event's group or kNoGroup to leave it out; valueOf(track, i) its value.
template <class GroupOf, class ValueOf>
GroupedValues collect(const Trace& trace, TrackKind kind, const std::optional<TimeRange>& range,
    GroupOf&& groupOf, ValueOf&& valueOf)
{
    const std::vector<EventSpan> spans = eventsStartingIn(trace, kind, range);
    GroupedValues grouped;
    for (const EventSpan& span : spans)
        for (uint32_t i = span.events.begin; i < span.events.end; ++i) {
            const uint32_t group = groupOf(*span.track, i);
            if (group != kNoGroup) grouped.count(group);
        }
    grouped.startFilling();
    for (const EventSpan& span : spans)
        for (uint32_t i = span.events.begin; i < span.events.end; ++i) {
            const uint32_t group = groupOf(*span.track, i);
            if (group != kNoGroup) grouped.add(group, valueOf(*span.track, i));
        }
    return grouped;
}

int64_t durationOf(const Track& track, uint32_t i)
{
    return track.events.end[i] - track.events.start[i];
}

int64_t valueOf(const Track& track, uint32_t i)
{
    return i < track.events.value.size() ? track.events.value[i] : 0;
}

uint32_t detailOf(const Track& track, uint32_t i)
{
    return i < track.events.detail.size() ? track.events.detail[i] : kNoGroup;
}

// Summarizes every group, sorts the rows (total descending, then name, then style) and sets
// each row's share of the report's total.
template <class DescribeRow>
StatsReport finish(StatsReportId id, GroupedValues& grouped, DescribeRow&& describe)
{
    StatsReport report;
    report.id = id;
    for (uint32_t g = 0; g < grouped.groupCount(); ++g) {
        std::span<int64_t> values = grouped.values(g);
        if (values.empty()) continue;
        StatsRow row;
        describe(g, row);
        row.values = summarize(values);
        report.rows.push_back(std::move(row));
    }
    std::sort(report.rows.begin(), report.rows.end(), [](const StatsRow& a, const StatsRow& b) {
        if (a.values.total != b.values.total) return a.values.total > b.values.total;
        if (a.name != b.name) return a.name < b.name;
        return a.style < b.style;
    });
    const int64_t total = report.total();
    if (total != 0)
        for (StatsRow& row : report.rows)
            row.percent = 100.0 * double(row.values.total) / double(total);
    return report;
}

// cuda_api_sum, cuda_gpu_kern_sum and osrt_sum: durations grouped by the events' names.
StatsReport byName(
    const Trace& trace, StatsReportId id, TrackKind kind, const std::optional<TimeRange>& range)
{
    GroupNumbering numbering(trace.strings.size());
    GroupedValues grouped = collect(
        trace, kind, range,
        [&](const Track& t, uint32_t i) { return numbering.groupOf(0, t.events.name[i]); }, durationOf);
    return finish(id, grouped,
        [&](uint32_t g, StatsRow& row) { row.name = std::string(trace.strings[numbering.key(g).name]); });
}

// cuda_gpu_mem_time_sum and cuda_gpu_mem_size_sum: grouped by operation name
// ("[CUDA memcpy Host-to-Device]"), so pageable and pinned copies of one direction share a row.
StatsReport byMemoryOperation(const Trace& trace, StatsReportId id, const std::optional<TimeRange>& range)
{
    std::vector<std::string> names;
    std::unordered_map<std::string, uint32_t> groupOfName;
    auto groupNamed = [&](std::string name) {
        auto [it, added] = groupOfName.emplace(name, uint32_t(names.size()));
        if (added) names.push_back(std::move(name));
        return it->second;
    };
    std::vector<uint32_t> groupOfOp;
    groupOfOp.reserve(trace.memoryOps.size());
    for (const MemoryOp& op : trace.memoryOps)
        groupOfOp.push_back(groupNamed(memoryOpName(op)));
    // An event whose operation descriptor is missing is shown as an unknown copy, not dropped.
    const uint32_t unknownGroup = groupNamed(memoryOpName(MemoryOp {}));

    auto groupOf = [&](const Track& t, uint32_t i) {
        const uint32_t op = detailOf(t, i);
        return op < groupOfOp.size() ? groupOfOp[op] : unknownGroup;
    };
    GroupedValues grouped = id == StatsReportId::CudaGpuMemSizeSum
        ? collect(trace, TrackKind::Memory, range, groupOf, valueOf)
        : collect(trace, TrackKind::Memory, range, groupOf, durationOf);
    return finish(id, grouped, [&](uint32_t g, StatsRow& row) { row.name = names[g]; });
}

// nvtx_sum: ranges grouped by (style, domain, text); marks are left out.
StatsReport nvtxRanges(const Trace& trace, const std::optional<TimeRange>& range)
{
    struct RangeClass
    {
        NvtxStyle style;
        DomainId domain;
    };
    std::vector<RangeClass> classes {{NvtxStyle::PushPop, DomainId {}}}; // class 0: no descriptor
    std::unordered_map<uint64_t, uint32_t> classOfKey {{0, 0}};
    std::vector<uint32_t> classOfAttributes;
    classOfAttributes.reserve(trace.nvtxAttributes.size());
    for (const NvtxAttributes& a : trace.nvtxAttributes) {
        if (a.style == NvtxStyle::Mark) {
            classOfAttributes.push_back(kNoGroup);
            continue;
        }
        const uint64_t key = (uint64_t(a.domain.value) << 8) | uint64_t(a.style);
        auto [it, added] = classOfKey.emplace(key, uint32_t(classes.size()));
        if (added) classes.push_back({a.style, a.domain});
        classOfAttributes.push_back(it->second);
    }

    GroupNumbering numbering(trace.strings.size());
    GroupedValues grouped = collect(
        trace, TrackKind::Nvtx, range,
        [&](const Track& t, uint32_t i) {
            const uint32_t attributes = detailOf(t, i);
            const uint32_t cls = attributes < classOfAttributes.size() ? classOfAttributes[attributes] : 0;
            return cls == kNoGroup ? kNoGroup : numbering.groupOf(cls, t.events.name[i]);
        },
        durationOf);
    return finish(StatsReportId::NvtxSum, grouped, [&](uint32_t g, StatsRow& row) {
        const GroupNumbering::Key& key = numbering.key(g);
        const RangeClass& cls = classes[key.cls];
        row.name = nvtxRangeName(trace, cls.domain, key.name);
        row.style = cls.style;
    });
}

// cpu_samples_sum: the call trees' flat table, by self samples, then total samples, then name.
StatsReport cpuSamples(const Trace& trace, const std::optional<TimeRange>& range)
{
    const CallTrees trees = computeCallTrees(trace, CallScope {range, std::nullopt});
    StatsReport report;
    report.id = StatsReportId::CpuSamplesSum;
    report.rows.reserve(trees.functions.size());
    for (const CallFunction& function : trees.functions) {
        StatsRow row;
        row.name = std::string(functionName(trace, function));
        row.module = std::string(moduleName(trace, function));
        row.values.count = row.values.total = function.self;
        row.percent = trees.percent(function.self);
        row.inclusive = function.total;
        report.rows.push_back(std::move(row));
    }
    return report;
}

// cpu_thread_sum: per thread, the lengths of its Running states (cut to the range), grouped
// by thread and named "name [tid]".
StatsReport cpuThreads(const Trace& trace, const std::optional<TimeRange>& range)
{
    const CpuProfile& cpu = trace.cpu;
    auto statesOf = [&](const ThreadRange& thread) {
        return range ? cpu.threadStates(thread.tid, *range)
                     : std::span<const ThreadStateInterval>(cpu.states.data() + thread.first, thread.count);
    };
    auto runningTime = [&](const ThreadStateInterval& s) -> int64_t {
        if (s.state != ThreadState::Running) return 0;
        return range ? std::min(s.end, range->end) - std::max(s.start, range->start) : s.end - s.start;
    };
    std::vector<uint32_t> groupOfThread(cpu.stateThreads.size(), kNoGroup);
    std::vector<Tid> threadOfGroup;
    GroupedValues grouped;
    for (size_t t = 0; t < cpu.stateThreads.size(); ++t)
        for (const ThreadStateInterval& s : statesOf(cpu.stateThreads[t]))
            if (runningTime(s) > 0) {
                if (groupOfThread[t] == kNoGroup) {
                    groupOfThread[t] = uint32_t(threadOfGroup.size());
                    threadOfGroup.push_back(cpu.stateThreads[t].tid);
                }
                grouped.count(groupOfThread[t]);
            }
    grouped.startFilling();
    for (size_t t = 0; t < cpu.stateThreads.size(); ++t)
        for (const ThreadStateInterval& s : statesOf(cpu.stateThreads[t]))
            if (const int64_t time = runningTime(s); time > 0) grouped.add(groupOfThread[t], time);
    return finish(StatsReportId::CpuThreadSum, grouped, [&](uint32_t g, StatsRow& row) {
        const Tid tid = threadOfGroup[g];
        const Thread* thread = trace.findThread(tid);
        const std::string label = "[" + std::to_string(tid.value) + "]";
        row.name = thread && !thread->name.empty() ? thread->name + " " + label : label;
    });
}

// What a report reads, to start the largest first.
size_t workOf(const Trace& trace, StatsReportId id)
{
    if (id == StatsReportId::CpuSamplesSum) return trace.cpu.samples.size();
    if (id == StatsReportId::CpuThreadSum) return trace.cpu.states.size();
    return trace.eventCount(*trackKindOf(id));
}

} // namespace

std::optional<TrackKind> trackKindOf(StatsReportId id)
{
    switch (id) {
    case StatsReportId::NvtxSum:
        return TrackKind::Nvtx;
    case StatsReportId::OsrtSum:
        return TrackKind::OsRuntime;
    case StatsReportId::CudaApiSum:
        return TrackKind::CudaApi;
    case StatsReportId::CudaGpuKernSum:
        return TrackKind::Kernels;
    case StatsReportId::CudaGpuMemTimeSum:
    case StatsReportId::CudaGpuMemSizeSum:
        return TrackKind::Memory;
    case StatsReportId::CpuSamplesSum:
    case StatsReportId::CpuThreadSum:
        return std::nullopt;
    }
    return std::nullopt;
}

StatsReport computeReport(const Trace& trace, StatsReportId id, std::optional<TimeRange> range)
{
    switch (id) {
    case StatsReportId::NvtxSum:
        return nvtxRanges(trace, range);
    case StatsReportId::CudaGpuMemTimeSum:
    case StatsReportId::CudaGpuMemSizeSum:
        return byMemoryOperation(trace, id, range);
    case StatsReportId::OsrtSum:
    case StatsReportId::CudaApiSum:
    case StatsReportId::CudaGpuKernSum:
        return byName(trace, id, *trackKindOf(id), range);
    case StatsReportId::CpuSamplesSum:
        return cpuSamples(trace, range);
    case StatsReportId::CpuThreadSum:
        return cpuThreads(trace, range);
    }
    return StatsReport {};
}

std::vector<StatsReport> computeReports(
    const Trace& trace, std::span<const StatsReportId> ids, std::optional<TimeRange> range, unsigned threads)
{
    std::vector<StatsReport> reports(ids.size());
    if (parallelWorkers(ids.size(), threads) <= 1) {
        for (size_t k = 0; k < ids.size(); ++k)
            reports[k] = computeReport(trace, ids[k], range);
        return reports;
    }

    // Largest reports first, so that the longest one does not start last.
    std::vector<size_t> order(ids.size());
    for (size_t k = 0; k < order.size(); ++k)
        order[k] = k;
    std::stable_sort(order.begin(), order.end(),
        [&](size_t a, size_t b) { return workOf(trace, ids[a]) > workOf(trace, ids[b]); });

    parallelFor(
        order.size(), [&](size_t k) { reports[order[k]] = computeReport(trace, ids[order[k]], range); },
        threads);
    return reports;
}

std::vector<StatsReport> computeAllReports(
    const Trace& trace, std::optional<TimeRange> range, unsigned threads)
{
    std::vector<StatsReportId> ids;
    for (const StatsReportInfo& info : statsReportCatalog())
        ids.push_back(info.id);
    return computeReports(trace, ids, range, threads);
}

} // namespace sightline
