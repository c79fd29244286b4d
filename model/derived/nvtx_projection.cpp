#include "model/derived/nvtx_projection.h"

#include "model/common/parallel_for.h"

#include <algorithm>
#include <bit>
#include <map>
#include <span>

namespace sightline {
namespace {

TimeRange joined(TimeRange a, TimeRange b)
{
    return {std::min(a.start, b.start), std::max(a.end, b.end)};
}

// One GPU operation, or, once merged, all the operations of one correlation id on one device.
struct GpuWork
{
    uint32_t correlation = 0;
    DeviceId device;
    TimeRange span;
    uint64_t operations = 1;
};

// The work one API call launched on one device.
struct Launch
{
    Timestamp call = 0; // the call's start
    TimeRange span;
    uint64_t operations = 0;
};

// A thread's CUDA API and NVTX tracks.
struct ThreadTracks
{
    Pid pid;
    Tid tid;
    std::vector<TrackId> calls;
    std::vector<TrackId> ranges;
};

struct ThreadRange
{
    TimeRange time;
    EventRef ref;
    uint32_t level = 0;
    uint32_t children = 0;
};

// Per process: its kernels, copies and memsets merged per (correlation id, device), in that order.
std::map<uint32_t, std::vector<GpuWork>> gpuWorkByProcess(const Trace& trace)
{
    std::map<uint32_t, std::vector<GpuWork>> byProcess;
    for (const Track& track : trace.tracks) {
        const EventColumns& ev = track.events;
        if ((track.key.kind != TrackKind::Kernels && track.key.kind != TrackKind::Memory)
            || ev.correlation.size() != ev.size())
            continue;
        std::vector<GpuWork>& work = byProcess[track.key.pid.value];
        for (size_t i = 0; i < ev.size(); ++i)
            if (ev.correlation[i].value != 0)
                work.push_back({ev.correlation[i].value, track.key.device, {ev.start[i], ev.end[i]}, 1});
    }
    for (auto& [pid, work] : byProcess) {
        std::sort(work.begin(), work.end(), [](const GpuWork& a, const GpuWork& b) {
            return a.correlation != b.correlation ? a.correlation < b.correlation : a.device < b.device;
        });
        size_t kept = 0;
        for (const GpuWork& w : work) {
            GpuWork* last = kept > 0 ? &work[kept - 1] : nullptr;
            if (last && last->correlation == w.correlation && last->device == w.device) {
                last->span = joined(last->span, w.span);
                last->operations += w.operations;
            } else {
                work[kept++] = w;
            }
        }
        work.resize(kept);
    }
    return byProcess;
}

// The threads with both CUDA API calls and NVTX ranges: only they can project anything.
std::vector<ThreadTracks> threadsWithCallsAndRanges(const Trace& trace)
{
    std::map<std::pair<uint32_t, uint32_t>, ThreadTracks> byThread;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        const TrackKey& key = trace.tracks[t].key;
        if (key.tid.value == 0 || (key.kind != TrackKind::CudaApi && key.kind != TrackKind::Nvtx)) continue;
        ThreadTracks& thread = byThread[{key.pid.value, key.tid.value}];
        thread.pid = key.pid;
        thread.tid = key.tid;
        (key.kind == TrackKind::CudaApi ? thread.calls : thread.ranges).push_back(TrackId(t));
    }
    std::vector<ThreadTracks> threads;
    for (auto& [id, thread] : byThread)
        if (!thread.calls.empty() && !thread.ranges.empty()) threads.push_back(std::move(thread));
    return threads;
}

// The thread's ranges by start (the enclosing one first), each with its nesting: a range nests
// in another of the thread's ranges that contains it, whatever their domains and styles.
std::vector<ThreadRange> rangesOf(const Trace& trace, const ThreadTracks& thread)
{
    std::vector<ThreadRange> ranges;
    for (TrackId id : thread.ranges) {
        const Track& track = trace.track(id);
        const EventColumns& ev = track.events;
        for (uint32_t i = 0; i < ev.size(); ++i) {
            if (ev.end[i] <= ev.start[i]) continue; // marks and empty ranges enclose no call
            const uint32_t detail = i < ev.detail.size() ? ev.detail[i] : ~0u;
            if (detail < trace.nvtxAttributes.size()) {
                const NvtxAttributes& attributes = trace.nvtxAttributes[detail];
                if (attributes.style == NvtxStyle::Mark) continue;
                if (attributes.endThread.value != 0 && attributes.endThread != thread.tid) continue;
            }
            ranges.push_back({{ev.start[i], ev.end[i]}, {id, i}});
        }
    }
    std::sort(ranges.begin(), ranges.end(), [](const ThreadRange& a, const ThreadRange& b) {
        if (a.time.start != b.time.start) return a.time.start < b.time.start;
        if (a.time.end != b.time.end) return a.time.end > b.time.end;
        return a.ref < b.ref;
    });
    std::vector<uint32_t> open; // the ranges enclosing the current one, innermost last
    for (uint32_t r = 0; r < ranges.size(); ++r) {
        while (!open.empty() && ranges[open.back()].time.end < ranges[r].time.end)
            open.pop_back();
        ranges[r].level = uint32_t(open.size());
        if (!open.empty()) ++ranges[open.back()].children;
        open.push_back(r);
    }
    return ranges;
}

// Per device, the work the thread's calls launched, in the order of the calls' starts.
std::map<uint32_t, std::vector<Launch>> launchesOf(
    const Trace& trace, const ThreadTracks& thread, std::span<const GpuWork> work)
{
    struct Call
    {
        uint32_t correlation;
        Timestamp start;
    };
    std::vector<Call> calls;
    for (TrackId id : thread.calls) {
        const EventColumns& ev = trace.track(id).events;
        if (ev.correlation.size() != ev.size()) continue;
        for (size_t i = 0; i < ev.size(); ++i)
            if (ev.correlation[i].value != 0) calls.push_back({ev.correlation[i].value, ev.start[i]});
    }
    std::sort(calls.begin(), calls.end(), [](const Call& a, const Call& b) {
        return a.correlation != b.correlation ? a.correlation < b.correlation : a.start < b.start;
    });
    // A runtime call and the driver call inside it carry the same id: the outer, earlier one
    // launched the work.
    calls.erase(std::unique(calls.begin(), calls.end(),
                    [](const Call& a, const Call& b) { return a.correlation == b.correlation; }),
        calls.end());

    std::map<uint32_t, std::vector<Launch>> launches;
    for (const Call& call : calls) {
        auto w = std::lower_bound(work.begin(), work.end(), call.correlation,
            [](const GpuWork& g, uint32_t correlation) { return g.correlation < correlation; });
        for (; w != work.end() && w->correlation == call.correlation; ++w)
            launches[w->device.value].push_back({call.start, w->span, w->operations});
    }
    for (auto& [device, list] : launches)
        std::sort(list.begin(), list.end(), [](const Launch& a, const Launch& b) { return a.call < b.call; });
    return launches;
}

// The joined span of any run of launches: whole blocks of kBlock launches from a sparse table
// (level k holds the span of 2^k consecutive blocks from each block on), the partial blocks at
// either end read directly. About 16 / kBlock * log2(n / kBlock) bytes per launch.
class SpanIndex
{
public:
    explicit SpanIndex(std::span<const Launch> launches)
        : m_launches(launches)
    {
        const size_t blocks = launches.size() / kBlock;
        if (blocks == 0) return;
        std::vector<TimeRange> base(blocks);
        for (size_t b = 0; b < blocks; ++b)
            base[b] = scan(b * kBlock, (b + 1) * kBlock);
        m_levels.push_back(std::move(base));
        for (size_t width = 2; width <= blocks; width *= 2) {
            const std::vector<TimeRange>& below = m_levels.back();
            std::vector<TimeRange> level(blocks - width + 1);
            for (size_t b = 0; b < level.size(); ++b)
                level[b] = joined(below[b], below[b + width / 2]);
            m_levels.push_back(std::move(level));
        }
    }

    // The span of launches [lo, hi), which must not be empty.
    TimeRange span(size_t lo, size_t hi) const
    {
        const size_t firstBlock = (lo + kBlock - 1) / kBlock;
        const size_t endBlock = hi / kBlock;
        if (firstBlock >= endBlock) return scan(lo, hi);
        const size_t level = size_t(std::bit_width(endBlock - firstBlock) - 1);
        TimeRange span
            = joined(m_levels[level][firstBlock], m_levels[level][endBlock - (size_t(1) << level)]);
        if (lo < firstBlock * kBlock) span = joined(span, scan(lo, firstBlock * kBlock));
        if (endBlock * kBlock < hi) span = joined(span, scan(endBlock * kBlock, hi));
        return span;
    }

private:
    static constexpr size_t kBlock = 32;

    TimeRange scan(size_t lo, size_t hi) const
    {
        TimeRange span = m_launches[lo].span;
        for (size_t i = lo + 1; i < hi; ++i)
            span = joined(span, m_launches[i].span);
        return span;
    }

    std::span<const Launch> m_launches;
    std::vector<std::vector<TimeRange>> m_levels;
};

std::vector<ProjectedRange> projectThread(
    const Trace& trace, const ThreadTracks& thread, std::span<const GpuWork> work)
{
    std::vector<ProjectedRange> projected;
    const std::map<uint32_t, std::vector<Launch>> launches = launchesOf(trace, thread, work);
    if (launches.empty()) return projected;
    const std::vector<ThreadRange> ranges = rangesOf(trace, thread);
    for (const auto& entry : launches) {
        // Named, not a structured binding: a lambda below captures it (clang before 16
        // cannot capture bindings).
        const uint32_t device = entry.first;
        const std::vector<Launch>& list = entry.second;
        const SpanIndex spans(list);
        std::vector<uint64_t> before(list.size() + 1, 0); // operations launched before each launch
        for (size_t i = 0; i < list.size(); ++i)
            before[i + 1] = before[i] + list[i].operations;
        auto firstAtOrAfter = [&](auto from, Timestamp t) {
            return std::lower_bound(
                from, list.end(), t, [](const Launch& l, Timestamp time) { return l.call < time; });
        };
        for (const ThreadRange& range : ranges) {
            const auto lo = firstAtOrAfter(list.begin(), range.time.start);
            const auto hi = firstAtOrAfter(lo, range.time.end);
            if (lo == hi) continue;
            const size_t a = size_t(lo - list.begin()), b = size_t(hi - list.begin());
            projected.push_back({range.ref, DeviceId(device), spans.span(a, b), before[b] - before[a],
                range.level, range.children});
        }
    }
    return projected;
}

} // namespace

std::vector<ProjectedRange> projectNvtxRanges(const Trace& trace, unsigned threads)
{
    const std::vector<ThreadTracks> hostThreads = threadsWithCallsAndRanges(trace);
    if (hostThreads.empty()) return {};
    const std::map<uint32_t, std::vector<GpuWork>> work = gpuWorkByProcess(trace);
    std::vector<std::vector<ProjectedRange>> perThread(hostThreads.size());
    parallelFor(
        hostThreads.size(),
        [&](size_t t) {
            const auto found = work.find(hostThreads[t].pid.value);
            if (found != work.end()) perThread[t] = projectThread(trace, hostThreads[t], found->second);
        },
        threads);

    std::vector<ProjectedRange> projected;
    for (std::vector<ProjectedRange>& part : perThread)
        projected.insert(projected.end(), part.begin(), part.end());
    std::sort(projected.begin(), projected.end(), [](const ProjectedRange& a, const ProjectedRange& b) {
        return a.range != b.range ? a.range < b.range : a.device < b.device;
    });
    return projected;
}

std::string nvtxRangeName(const Trace& trace, DomainId domain, StringId text)
{
    const std::string_view domainName = trace.domainName(domain);
    std::string name = domainName.empty() ? std::string() : std::string(domainName) + ":";
    name += trace.strings[text];
    return name;
}

} // namespace sightline
