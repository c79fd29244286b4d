#include "generate.h"
#include "model/derived/cpu_utilization_series.h"
#include "random.h"

#include <algorithm>
#include <map>

namespace sightline::gen {

namespace {

// The call tree, one node per frame (node i calls frame i), callers first.
struct CallTreeNode
{
    const char* function;
    const char* module;
    uint64_t offset;
    uint32_t caller;
};

constexpr CallTreeNode kCallTree[] = {
    {"main", "train.py", 0x1a4, kNoCallStack}, // 0
    {"train_step", "train.py", 0x2f0, 0}, // 1
    {"forward", "libtorch_cpu.so", 0x1c3e2a0, 1}, // 2
    {"matmul_kernel_launch", "libtorch_cpu.so", 0x2a91c40, 2}, // 3: 60% of the samples
    {"load_batch", "train.py", 0x3b8, 0}, // 4
    {"decode_jpeg", "libjpeg.so.8", 0x1e7f0, 4}, // 5: 30%
    {"backward", "libtorch_cpu.so", 0x1d04f10, 1}, // 6
    {"__memcpy_avx_unaligned_erms", "libc.so.6", 0x1a0b40, 6}, // 7: 10%
    {"clock_nanosleep", "libc.so.6", 0xe3c10, 4}, // 8: where a thread sleeps
    {"pthread_cond_wait", "libc.so.6", 0x91370, 1}, // 9: where a thread blocks
};
constexpr uint32_t kSleepStack = 8, kBlockStack = 9;

// The leaves of every ten samples in turn: six matmul launches, three JPEG decodes, one copy.
constexpr uint32_t kLeafPattern[10] = {3, 5, 3, 3, 7, 3, 5, 3, 5, 3};

// A thread runs for 17 sampling periods of every 20, then sleeps or blocks for 3.
constexpr uint32_t kCyclePeriods = 20, kRunningPeriods = 17;
constexpr uint32_t kCores = 128;

// Each host thread's life: the span of its events, else the span of its process's threads.
std::map<Tid, TimeRange> threadLives(const Trace& trace)
{
    std::map<Tid, Pid> pidOf;
    for (const Thread& thread : trace.threads)
        pidOf[thread.tid] = thread.pid;
    std::map<Tid, TimeRange> threadSpans;
    std::map<Pid, TimeRange> processSpans;
    auto widen = [](auto& spans, auto key, TimeRange range) {
        auto [it, added] = spans.try_emplace(key, range);
        it->second = {std::min(it->second.start, range.start), std::max(it->second.end, range.end)};
    };
    for (const Track& track : trace.tracks) {
        if (!pidOf.count(track.key.tid)) continue;
        for (uint32_t l = 0; l < track.laneCount(); ++l) {
            const IndexRange lane = track.lane(l);
            if (lane.empty()) continue;
            const TimeRange range {track.events.start[lane.begin], track.events.end[lane.end - 1]};
            widen(threadSpans, track.key.tid, range);
            widen(processSpans, pidOf[track.key.tid], range);
        }
    }
    std::map<Tid, TimeRange> lives;
    for (const auto& [tid, pid] : pidOf) {
        if (auto own = threadSpans.find(tid); own != threadSpans.end())
            lives[tid] = own->second;
        else if (auto process = processSpans.find(pid); process != processSpans.end())
            lives[tid] = process->second;
    }
    return lives;
}

void sampleThread(CpuProfile& cpu, Tid tid, TimeRange life, Duration period, Random& random)
{
    uint64_t taken = 0;
    uint64_t cycle = 0;
    for (Timestamp cycleStart = life.start; cycleStart < life.end;
         cycleStart += kCyclePeriods * period, ++cycle) {
        const Timestamp runningEnd = std::min(life.end, cycleStart + kRunningPeriods * period);
        const Timestamp cycleEnd = std::min(life.end, cycleStart + kCyclePeriods * period);
        cpu.states.push_back({cycleStart, runningEnd, tid, ThreadState::Running, kNoCallStack});
        const auto core = uint32_t(random.below(kCores));
        for (Timestamp slot = cycleStart; slot < runningEnd; slot += period) {
            Timestamp time = slot + Timestamp(random.below(uint64_t(period / 4) + 1));
            if (time >= runningEnd) time = slot;
            cpu.samples.push_back({time, tid, kLeafPattern[taken++ % std::size(kLeafPattern)], core});
        }
        if (runningEnd < cycleEnd) {
            const bool sleeps = cycle % 2 == 0;
            cpu.states.push_back({runningEnd, cycleEnd, tid,
                sleeps ? ThreadState::Sleeping : ThreadState::Blocked, sleeps ? kSleepStack : kBlockStack});
        }
    }
}

void setOption(KeyValueList& options, const std::string& key, const std::string& value)
{
    auto it = std::find_if(
        options.begin(), options.end(), [&](const auto& option) { return option.first == key; });
    if (it != options.end())
        it->second = value;
    else
        options.emplace_back(key, value);
}

} // namespace

void addGeneratedCpuSamples(Trace& trace, uint32_t hz, uint64_t seed)
{
    CpuProfile& cpu = trace.cpu;
    cpu = {};
    cpu.samplingPeriod = std::max<Duration>(1, 1'000'000'000 / hz);
    for (uint32_t i = 0; i < std::size(kCallTree); ++i) {
        const CallTreeNode& node = kCallTree[i];
        cpu.frames.push_back(
            {trace.strings.intern(node.function), trace.strings.intern(node.module), node.offset});
        cpu.stacks.push_back({node.caller, i});
    }
    // Threads in tid order, so the samples and states come out sorted.
    for (const auto& [tid, life] : threadLives(trace)) {
        Random random = Random::derived(seed, 0x5a3b1e00ull + tid.value);
        sampleThread(cpu, tid, life, cpu.samplingPeriod, random);
    }
    setOption(trace.metadata.options, "sample", "process-tree");
    setOption(trace.metadata.options, "sampling-frequency", std::to_string(hz));
    addCpuUtilizationSeries(trace);
    trace.buildIndexes();
}

} // namespace sightline::gen
