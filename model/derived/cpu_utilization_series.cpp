#include "model/derived/cpu_utilization_series.h"

#include <algorithm>
#include <map>

namespace sightline {

namespace {

constexpr Timestamp kMinimumBucket = 1'000'000; // 1 ms
constexpr Timestamp kMaximumBuckets = 20'000;

// Adds the part of [start, end) that falls into each bucket to `busy`.
void spread(std::vector<double>& busy, Timestamp origin, Timestamp width, Timestamp start, Timestamp end)
{
    start = std::max(start, origin);
    if (end <= start) return;
    size_t bucket = size_t((start - origin) / width);
    while (start < end && bucket < busy.size()) {
        const Timestamp bucketEnd = origin + Timestamp(bucket + 1) * width;
        const Timestamp part = std::min(end, bucketEnd) - start;
        busy[bucket] += double(part);
        start = bucketEnd;
        ++bucket;
    }
}

TimeRange cpuSpan(const CpuProfile& cpu)
{
    TimeRange span {INT64_MAX, INT64_MIN};
    for (const CpuSample& s : cpu.samples) {
        span.start = std::min(span.start, s.time);
        span.end = std::max(span.end, s.time + std::max<Timestamp>(cpu.samplingPeriod, 1));
    }
    for (const ThreadStateInterval& s : cpu.states) {
        span.start = std::min(span.start, s.start);
        span.end = std::max(span.end, s.end);
    }
    return span;
}

bool isDerived(const CounterSeries& series)
{
    return series.source == CounterSource::CpuUtilization;
}

} // namespace

size_t storedCounterSeriesCount(const Trace& trace)
{
    size_t n = 0;
    while (n < trace.counterSeries.size() && !isDerived(trace.counterSeries[n]))
        ++n;
    return n;
}

size_t storedCounterTimelineCount(const Trace& trace)
{
    size_t timelines = 0;
    for (size_t i = 0; i < storedCounterSeriesCount(trace); ++i)
        timelines = std::max<size_t>(timelines, trace.counterSeries[i].timeline + 1);
    // Timelines no stored series refers to are still stored, unless they follow the first derived one.
    size_t firstDerived = trace.counterTimelines.size();
    for (size_t i = storedCounterSeriesCount(trace); i < trace.counterSeries.size(); ++i)
        firstDerived = std::min<size_t>(firstDerived, trace.counterSeries[i].timeline);
    return std::max(timelines, std::min(firstDerived, trace.counterTimelines.size()));
}

void addCpuUtilizationSeries(Trace& trace)
{
    trace.counterTimelines.resize(storedCounterTimelineCount(trace));
    trace.counterSeries.resize(storedCounterSeriesCount(trace));
    const CpuProfile& cpu = trace.cpu;
    if (cpu.samples.empty() && cpu.states.empty()) return;

    const TimeRange span = cpuSpan(cpu);
    const Timestamp width
        = std::max(kMinimumBucket, (span.duration() + kMaximumBuckets - 1) / kMaximumBuckets);
    const size_t buckets = size_t((span.duration() + width - 1) / width);

    std::map<uint32_t, uint32_t> pidOfTid;
    for (const Thread& t : trace.threads)
        pidOfTid[t.tid.value] = t.pid.value;
    std::map<uint32_t, std::vector<double>> busyByPid;
    auto busyOf = [&](Tid tid) -> std::vector<double>& {
        auto it = pidOfTid.find(tid.value);
        std::vector<double>& busy = busyByPid[it == pidOfTid.end() ? tid.value : it->second];
        busy.resize(buckets);
        return busy;
    };

    for (const ThreadStateInterval& s : cpu.states)
        if (s.state == ThreadState::Running) spread(busyOf(s.tid), span.start, width, s.start, s.end);
    std::map<uint32_t, bool> threadHasStates;
    for (const ThreadStateInterval& s : cpu.states)
        threadHasStates[s.tid.value] = true;
    const Timestamp period = std::max<Timestamp>(cpu.samplingPeriod, 1);
    for (const CpuSample& s : cpu.samples)
        if (!threadHasStates.count(s.tid.value))
            spread(busyOf(s.tid), span.start, width, s.time, s.time + period);

    CounterTimeline timeline;
    timeline.starts.resize(buckets);
    for (size_t i = 0; i < buckets; ++i)
        timeline.starts[i] = span.start + Timestamp(i) * width;
    timeline.end = span.start + Timestamp(buckets) * width;
    const auto timelineIndex = uint32_t(trace.counterTimelines.size());
    trace.counterTimelines.push_back(std::move(timeline));

    for (auto& [pid, busy] : busyByPid) {
        CounterSeries series;
        series.source = CounterSource::CpuUtilization;
        series.pid = Pid(pid);
        series.timeline = timelineIndex;
        series.name = "CPU Utilization";
        series.unit = "%";
        series.description = "CPU time the process's threads used, in percent of one core";
        series.resolution = 0.01;
        series.values.resize(busy.size());
        for (size_t i = 0; i < busy.size(); ++i)
            series.values[i] = roundToResolution(100.0 * busy[i] / double(width), series.resolution);
        trace.counterSeries.push_back(std::move(series));
    }
}

} // namespace sightline
