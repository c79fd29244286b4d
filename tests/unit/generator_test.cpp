// The synthetic generator: determinism, exact size, and the invariants every consumer relies
// on (correlation, stream lanes, NVTX nesting), checked by brute force over generated traces.
#include "../test_paths.h"
#include "generate.h"
#include "model/format/report_io.h"
#include "random.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

using namespace sightline;

namespace {

gen::GeneratorOptions optionsFor(uint64_t events, uint64_t seed = 7)
{
    gen::GeneratorOptions options;
    options.events = events;
    options.seed = seed;
    return options;
}

bool sameTrace(const Trace& a, const Trace& b)
{
    if (!(a.metadata == b.metadata && a.strings == b.strings && a.processes == b.processes
            && a.threads == b.threads && a.gpus == b.gpus && a.contexts == b.contexts
            && a.streams == b.streams && a.domains == b.domains && a.apiResults == b.apiResults
            && a.kernelLaunches == b.kernelLaunches && a.memoryOps == b.memoryOps && a.syncOps == b.syncOps
            && a.nvtxAttributes == b.nvtxAttributes && a.tracks.size() == b.tracks.size()))
        return false;
    for (size_t t = 0; t < a.tracks.size(); ++t) {
        const Track& x = a.tracks[t];
        const Track& y = b.tracks[t];
        if (!(x.key == y.key && x.events == y.events && x.laneBegin == y.laneBegin && x.nested == y.nested))
            return false;
    }
    return true;
}

uint64_t processKey(Pid pid, CorrelationId id)
{
    return uint64_t(pid.value) << 32 | id.value;
}

// Every GPU operation has an API call of its process with its correlation id, starting no later.
void checkCorrelation(const Trace& trace)
{
    std::unordered_map<uint64_t, Timestamp> firstCall;
    for (const Track& track : trace.tracks) {
        if (track.key.kind != TrackKind::CudaApi) continue;
        for (uint32_t i = 0; i < track.size(); ++i) {
            auto [it, added] = firstCall.emplace(
                processKey(track.key.pid, track.events.correlation[i]), track.events.start[i]);
            if (!added) it->second = std::min(it->second, track.events.start[i]);
        }
    }
    size_t checked = 0;
    for (const Track& track : trace.tracks) {
        if (!isGpuKind(track.key.kind)) continue;
        for (uint32_t i = 0; i < track.size(); ++i) {
            CorrelationId id = track.events.correlation[i];
            REQUIRE(id.value != 0);
            auto it = firstCall.find(processKey(track.key.pid, id));
            REQUIRE(it != firstCall.end());
            REQUIRE(it->second <= track.events.start[i]);
            ++checked;
        }
    }
    CHECK(checked > 0);
}

// Runtime calls of one process carry distinct ids that grow along each thread's timeline.
void checkCorrelationIdsGrow(const Trace& trace)
{
    std::set<uint64_t> seen;
    for (const Track& track : trace.tracks) {
        if (track.key.kind != TrackKind::CudaApi) continue;
        IndexRange outer = track.lane(0);
        for (uint32_t i = outer.begin; i < outer.end; ++i) {
            REQUIRE(seen.insert(processKey(track.key.pid, track.events.correlation[i])).second);
            if (i > outer.begin) REQUIRE(track.events.correlation[i - 1] < track.events.correlation[i]);
        }
    }
}

// Kernels and memory operations of one stream never overlap, and every GPU row is one lane.
void checkStreamsDoNotOverlap(const Trace& trace)
{
    std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>, std::vector<std::pair<Timestamp, Timestamp>>>
        busy;
    for (const Track& track : trace.tracks) {
        if (!isGpuKind(track.key.kind)) continue;
        REQUIRE(track.laneCount() == 1);
        for (uint32_t i = 1; i < track.size(); ++i)
            REQUIRE(track.events.end[i - 1] <= track.events.start[i]);
        if (track.key.kind == TrackKind::Synchronization) continue;
        auto& intervals = busy[{
            track.key.pid.value, track.key.device.value, track.key.context.value, track.key.stream.value}];
        for (uint32_t i = 0; i < track.size(); ++i)
            intervals.emplace_back(track.events.start[i], track.events.end[i]);
    }
    REQUIRE(!busy.empty());
    for (auto& [stream, intervals] : busy) {
        std::sort(intervals.begin(), intervals.end());
        for (size_t i = 1; i < intervals.size(); ++i)
            REQUIRE(intervals[i - 1].second <= intervals[i].first);
    }
}

// In nested rows each event of lane L > 0 lies inside an event of lane L - 1.
uint32_t checkNesting(const Track& track)
{
    for (uint32_t lane = 1; lane < track.laneCount(); ++lane) {
        IndexRange parents = track.lane(lane - 1);
        IndexRange children = track.lane(lane);
        for (uint32_t c = children.begin; c < children.end; ++c) {
            const auto& starts = track.events.start;
            auto it
                = std::upper_bound(starts.begin() + parents.begin, starts.begin() + parents.end, starts[c]);
            REQUIRE(it != starts.begin() + parents.begin);
            uint32_t parent = uint32_t(it - starts.begin()) - 1;
            REQUIRE(track.events.end[parent] >= track.events.end[c]);
        }
    }
    return track.laneCount();
}

void checkNvtx(const Trace& trace)
{
    uint32_t deepest = 0;
    size_t crossThread = 0, marks = 0;
    for (const Track& track : trace.tracks) {
        if (track.key.kind != TrackKind::Nvtx) continue;
        // Only start/end ranges may overlap freely; rows of push/pop ranges and marks nest.
        bool freeStyle = std::any_of(track.events.detail.begin(), track.events.detail.end(),
            [&](uint32_t d) { return trace.nvtxAttributes[d].style == NvtxStyle::StartEnd; });
        REQUIRE((freeStyle || track.nested));
        if (track.nested) deepest = std::max(deepest, checkNesting(track));
        for (uint32_t i = 0; i < track.size(); ++i) {
            const NvtxAttributes& attributes = trace.nvtxAttributes[track.events.detail[i]];
            REQUIRE(track.events.start[i] <= track.events.end[i]);
            if (attributes.style == NvtxStyle::StartEnd && attributes.endThread != track.key.tid)
                ++crossThread;
            if (attributes.style == NvtxStyle::Mark) {
                REQUIRE(track.events.start[i] == track.events.end[i]);
                ++marks;
            }
        }
    }
    CHECK(deepest >= 4); // train_step > forward > layer > self_attn
    CHECK(crossThread > 0);
    CHECK(marks > 0);
}

void checkInvariants(const Trace& trace)
{
    checkCorrelation(trace);
    checkCorrelationIdsGrow(trace);
    checkStreamsDoNotOverlap(trace);
    checkNvtx(trace);
}

std::set<std::string> namesOf(const Trace& trace, TrackKind kind)
{
    std::set<std::string> names;
    for (const Track& track : trace.tracks)
        if (track.key.kind == kind)
            for (StringId name : track.events.name)
                names.emplace(trace.strings[name]);
    return names;
}

} // namespace

TEST_CASE("the random source matches the splitmix64 reference and is well spread")
{
    uint64_t state = 0;
    CHECK(gen::splitMix64(state) == 0xe220a8397b1dcdafULL);
    CHECK(gen::splitMix64(state) == 0x6e789e6aa1b965f4ULL);
    CHECK(gen::splitMix64(state) == 0x06c45d188009454fULL);

    CHECK(gen::powerOfTwo(3.0) == 8.0);
    CHECK(gen::powerOfTwo(-2.0) == 0.25);
    CHECK(gen::powerOfTwo(0.5) == Approx(1.41421356).epsilon(1e-6));
    CHECK(gen::powerOfTwo(-1.5) == Approx(0.35355339).epsilon(1e-6));

    gen::Random random(42);
    std::vector<int64_t> samples;
    for (int i = 0; i < 20001; ++i)
        samples.push_back(random.logNormal(5000, 1.0));
    std::nth_element(samples.begin(), samples.begin() + 10000, samples.end());
    CHECK(samples[10000] == Approx(5000).epsilon(0.05));
    CHECK(*std::min_element(samples.begin(), samples.end()) >= 5000 / 11);
    CHECK(*std::max_element(samples.begin(), samples.end()) <= 5000 * 11);
    for (int i = 0; i < 1000; ++i) {
        uint64_t value = random.below(7);
        REQUIRE(value < 7);
    }
}

TEST_CASE("the same seed gives the same trace, another seed another one")
{
    Trace a = gen::generateTrace(optionsFor(30000, 11));
    Trace b = gen::generateTrace(optionsFor(30000, 11));
    Trace c = gen::generateTrace(optionsFor(30000, 12));
    CHECK(sameTrace(a, b));
    CHECK_FALSE(sameTrace(a, c));
    CHECK(c.eventCount() == a.eventCount());
}

TEST_CASE("the trace holds the requested number of events")
{
    for (uint64_t target : {1000ull, 1ull, 12345ull, 250000ull}) {
        Trace trace = gen::generateTrace(optionsFor(target));
        INFO("target " << target);
        uint64_t count = trace.eventCount();
        CHECK(count + target / 100 >= target);
        CHECK(count <= target + target / 100);
        CHECK(count == target);
    }
}

TEST_CASE("every GPU operation follows an API call, streams never overlap, NVTX nests")
{
    Trace trace = gen::generateTrace(optionsFor(200000));
    checkInvariants(trace);
    for (int k = 0; k < kTrackKindCount; ++k) {
        INFO("track kind " << k);
        CHECK(trace.eventCount(TrackKind(k)) > 0);
    }
}

TEST_CASE("other shapes keep the invariants", "[shapes]")
{
    struct Shape
    {
        uint32_t processes, threads, gpus, streams;
    };
    for (Shape shape : {Shape {1, 1, 1, 1}, Shape {1, 2, 2, 2}, Shape {3, 5, 2, 6}, Shape {2, 3, 4, 4}}) {
        gen::GeneratorOptions options = optionsFor(60000, 5);
        options.processes = shape.processes;
        options.threadsPerProcess = shape.threads;
        options.gpus = shape.gpus;
        options.streamsPerGpu = shape.streams;
        REQUIRE(gen::checkOptions(options).empty());
        INFO("processes " << shape.processes << ", threads " << shape.threads << ", gpus " << shape.gpus
                          << ", streams " << shape.streams);
        Trace trace = gen::generateTrace(options);
        CHECK(trace.eventCount() == options.events);
        CHECK(trace.processes.size() == shape.processes);
        CHECK(trace.threads.size() == size_t(shape.processes) * shape.threads);
        checkCorrelation(trace);
        checkCorrelationIdsGrow(trace);
        checkStreamsDoNotOverlap(trace);
        if (shape.processes == 1 && shape.gpus == 2) { // the model split over two GPUs
            bool peerCopy = std::any_of(trace.memoryOps.begin(), trace.memoryOps.end(),
                [](const MemoryOp& op) { return op.copyKind == CopyKind::PtoP; });
            CHECK(peerCopy);
        }
    }
    gen::GeneratorOptions bad = optionsFor(100);
    bad.processes = 0;
    CHECK_FALSE(gen::checkOptions(bad).empty());
}

TEST_CASE("the trace looks like a PyTorch training job on two H200s")
{
    Trace trace = gen::generateTrace(optionsFor(200000));
    CHECK(trace.metadata.producer == "sightline-gen");
    CHECK(trace.metadata.commandLine == std::vector<std::string> {"python", "train.py"});
    CHECK(!trace.metadata.hostname.empty());
    CHECK(!trace.metadata.driverVersion.empty());
    CHECK(trace.metadata.startTimeUtcNs > 0);
    REQUIRE(trace.gpus.size() == 2);
    for (const Gpu& gpu : trace.gpus) {
        CHECK(gpu.name == "NVIDIA H200");
        CHECK(gpu.computeMajor == 9);
        CHECK(gpu.smCount == 132);
        CHECK(gpu.uuid.rfind("GPU-", 0) == 0);
    }
    CHECK(trace.gpus[0].uuid != trace.gpus[1].uuid);
    CHECK(trace.processes.size() == 2);
    CHECK(trace.threads.size() == 6);
    CHECK(trace.streams.size() == 8);

    std::set<std::string> kernels = namesOf(trace, TrackKind::Kernels);
    CHECK(kernels.count("ampere_sgemm_128x64_tn") == 1);
    CHECK(
        kernels.count("ncclKernel_AllReduce_RING_LL_Sum_float(ncclDevComm*, unsigned long, ncclWork*)") == 1);
    std::set<std::string> api = namesOf(trace, TrackKind::CudaApi);
    for (const char* name : {"cudaLaunchKernel", "cuLaunchKernel", "cudaMemcpyAsync", "cudaMemsetAsync",
             "cudaStreamSynchronize", "cudaEventRecord", "cudaStreamWaitEvent"})
        CHECK(api.count(name) == 1);
    std::set<std::string> os = namesOf(trace, TrackKind::OsRuntime);
    for (const char* name : {"pthread_mutex_lock", "sem_wait", "poll", "read", "write", "ioctl", "nanosleep"})
        CHECK(os.count(name) == 1);

    // Kernel durations from microseconds to milliseconds.
    Duration shortest = std::numeric_limits<Duration>::max(), longest = 0;
    for (const Track& track : trace.tracks)
        if (track.key.kind == TrackKind::Kernels)
            for (uint32_t i = 0; i < track.size(); ++i) {
                shortest = std::min(shortest, track.duration(i));
                longest = std::max(longest, track.duration(i));
            }
    CHECK(shortest < 5000);
    CHECK(longest > 1000000);

    auto hasCopy = [&](CopyKind kind, MemoryKind host) {
        return std::any_of(trace.memoryOps.begin(), trace.memoryOps.end(), [&](const MemoryOp& op) {
            return op.kind == MemoryOpKind::Memcpy && op.copyKind == kind
                && (op.srcKind == host || op.dstKind == host);
        });
    };
    CHECK(hasCopy(CopyKind::HtoD, MemoryKind::Pinned));
    CHECK(hasCopy(CopyKind::HtoD, MemoryKind::Pageable));
    CHECK(hasCopy(CopyKind::DtoH, MemoryKind::Pageable));
    CHECK(hasCopy(CopyKind::DtoD, MemoryKind::Device));
    CHECK(std::any_of(trace.memoryOps.begin(), trace.memoryOps.end(),
        [](const MemoryOp& op) { return op.kind == MemoryOpKind::Memset; }));
    CHECK(std::any_of(trace.apiResults.begin(), trace.apiResults.end(),
        [](const ApiResult& r) { return r.returnCode != 0; }));
    CHECK(trace.domains.size() >= 2);
}

TEST_CASE("sightline-gen writes a report that reads back as the generated trace")
{
    auto dir = test::scratchDir("generator");
    std::string out = (dir / "gen.rep").string();
    std::string command = (test::binDir() / "sightline-gen").string() + " --events 20k --seed 3 -o " + out
        + " > " + (dir / "stdout.txt").string();
    REQUIRE(std::system(command.c_str()) == 0);
    Result<Trace> loaded = readReport(out);
    REQUIRE(loaded);
    CHECK(loaded.value().eventCount() == 20000);

    gen::GeneratorOptions options = optionsFor(20000, 3);
    Trace generated = gen::generateTrace(options);
    REQUIRE(loaded.value().tracks.size() == generated.tracks.size());
    for (size_t t = 0; t < generated.tracks.size(); ++t) {
        CHECK(loaded.value().tracks[t].key == generated.tracks[t].key);
        CHECK(loaded.value().tracks[t].events.start == generated.tracks[t].events.start);
    }

    std::string bad = (test::binDir() / "sightline-gen").string() + " --events lots -o " + out + " 2> "
        + (dir / "stderr.txt").string();
    CHECK(std::system(bad.c_str()) != 0);
}
