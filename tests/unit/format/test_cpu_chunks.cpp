// The CPU profile in .rep files: a round trip through several chunks of every CPU kind, the
// derived CPU utilization series made again on reading, crafted damage refused with a
// sentence, a cut report keeping its prefix, and the generator's CPU samples.
#include "../../test_paths.h"
#include "../support/file_bytes.h"
#include "../support/peak_memory.h"
#include "../support/report_chunks.h"
#include "../support/trace_compare.h"
#include "model/construct/trace_builder.h"
#include "model/format/frame_index.h"
#include "model/format/report_io.h"
#include "tests/tools/generator/generate.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>
#include <map>

using namespace sightline;
using rep::ChunkKind;

namespace {

constexpr uint32_t kEntriesPerChunk = 500;
constexpr Timestamp kMillisecond = 1'000'000;

// Where a thread's rows begin: one thread lives in negative time.
Timestamp threadOrigin(uint32_t tid)
{
    return tid == 201 ? -5 * kMillisecond : Timestamp(tid) * kMillisecond;
}

// Two processes, four threads. 600 frames and 60 paths ten deep (1,200 table entries: three
// stack chunks), 6,000 samples, 3,200 states and 800 event stacks (several batches each, with
// threads running across batch edges), one kernel frame in 50, a stored GPU counter series.
Trace cpuTrace()
{
    TraceBuilder builder;
    builder.addProcess(Process {Pid(100), "python", {"python", "train.py"}});
    builder.addProcess(Process {Pid(200), "loader", {"loader"}});
    const uint32_t tids[] = {101, 102, 103, 201};
    for (uint32_t tid : tids)
        builder.addThread(Thread {Pid(tid / 100 * 100), Tid(tid), "thread " + std::to_string(tid)});

    std::vector<uint32_t> frames;
    for (uint32_t i = 0; i < 600; ++i)
        frames.push_back(builder.cpuFrame({builder.intern("function_" + std::to_string(i)),
            builder.intern("libmodule" + std::to_string(i % 5) + ".so"), 0x7f0000001000ull + i * 16,
            i % 50 == 0}));
    std::vector<uint32_t> leaves;
    for (uint32_t path = 0; path < 60; ++path) {
        std::vector<uint32_t> leafFirst;
        for (uint32_t depth = 10; depth-- > 0;)
            leafFirst.push_back(frames[path * 10 + depth]);
        leaves.push_back(builder.cpuStack(leafFirst));
    }

    builder.setSamplingPeriod(kMillisecond);
    constexpr ThreadState kWaits[] = {ThreadState::Blocked, ThreadState::Sleeping, ThreadState::WaitingIo};
    for (uint32_t tid : tids) {
        const Timestamp origin = threadOrigin(tid);
        for (uint32_t i = 0; i < 1500; ++i)
            builder.addCpuSample({origin + i * kMillisecond + (i % 7) * 13, Tid(tid),
                i % 11 == 0 ? kNoCallStack : leaves[(i * 7 + tid) % leaves.size()], i % 64});
        for (uint32_t c = 0; c < 400; ++c) {
            const Timestamp start = origin + c * 10 * kMillisecond;
            builder.addThreadState(
                {start, start + 8 * kMillisecond, Tid(tid), ThreadState::Running, kNoCallStack});
            builder.addThreadState({start + 8 * kMillisecond, start + 10 * kMillisecond, Tid(tid),
                kWaits[c % 3], leaves[c % leaves.size()]});
        }
        for (uint32_t j = 0; j < 200; ++j)
            builder.addEventStack(
                {Tid(tid), origin + j * 7 * kMillisecond + 3, leaves[(j * 3) % leaves.size()]});
    }

    CounterTimeline timeline;
    for (Timestamp i = 0; i < 100; ++i)
        timeline.starts.push_back(i * kMillisecond);
    timeline.end = 100 * kMillisecond;
    CounterSeries series;
    series.timeline = builder.addCounterTimeline(std::move(timeline));
    series.name = "SMs Active";
    series.unit = "%";
    series.resolution = 0.1;
    for (int i = 0; i < 100; ++i)
        series.values.push_back(i % 10 * 10.0);
    builder.addCounterSeries(std::move(series));
    return builder.build();
}

std::string writtenBytes(const Trace& trace, const std::filesystem::path& path)
{
    WriteOptions options;
    options.eventsPerChunk = kEntriesPerChunk;
    REQUIRE(writeReport(trace, path.string(), options).ok());
    return test::readFileBytes(path.string());
}

size_t derivedSeriesCount(const Trace& trace)
{
    return size_t(std::count_if(trace.counterSeries.begin(), trace.counterSeries.end(),
        [](const CounterSeries& s) { return s.source == CounterSource::CpuUtilization; }));
}

std::map<ChunkKind, size_t> chunkKinds(const test::ReportChunks& report)
{
    std::map<ChunkKind, size_t> kinds;
    for (const auto& [kind, chunk] : report.chunks)
        ++kinds[kind];
    return kinds;
}

// The first stack chunk that holds nodes.
rep::CpuStacks& nodeChunk(test::ReportChunks& report)
{
    for (auto& [kind, chunk] : report.chunks)
        if (kind == ChunkKind::CpuStacks && chunk.cpu_stacks().node_frame_size() > 0)
            return *chunk.mutable_cpu_stacks();
    FAIL("no stack chunk holds nodes");
    throw;
}

} // namespace

TEST_CASE("a CPU profile survives writing and reading, over several chunks of each kind", "[cpu]")
{
    const auto dir = test::scratchDir("cpu-chunks-round-trip");
    const Trace original = cpuTrace();
    REQUIRE(original.cpu.frames.size() == 600);
    REQUIRE(original.cpu.samples.size() == 6000);
    REQUIRE(derivedSeriesCount(original) == 2);

    const std::string bytes = writtenBytes(original, dir / "cpu.rep");
    const test::ReportChunks report = test::splitReport(bytes);
    const auto kinds = chunkKinds(report);
    CHECK(kinds.at(ChunkKind::CpuStacks) == 3);
    CHECK(kinds.at(ChunkKind::CpuSampleBatch) == 12);
    CHECK(kinds.at(ChunkKind::ThreadStateBatch) == 7);
    CHECK(kinds.at(ChunkKind::EventStackBatch) == 2);
    // Only the stored series are in the file; the utilization series are derived.
    for (const auto& [kind, chunk] : report.chunks)
        if (kind == ChunkKind::CounterDefinitions) CHECK(chunk.counter_definitions().series_size() == 1);

    const Result<Trace> read = readReport((dir / "cpu.rep").string());
    INFO(read.error());
    REQUIRE(read);
    CHECK(read->cpu.sameContent(original.cpu));
    CHECK(read->counterSeries == original.counterSeries);
    CHECK(derivedSeriesCount(read.value()) == 2);
    CHECK(test::firstDifference(original, read.value()).empty());
    CHECK(read->cpu.threadSamples(Tid(201), {-5 * kMillisecond, 0}).size() == 5);

    // Written again, the read trace gives the same bytes.
    CHECK(writtenBytes(read.value(), dir / "again.rep") == bytes);
}

TEST_CASE("crafted CPU chunks are refused with a sentence naming the file", "[cpu]")
{
    const auto dir = test::scratchDir("cpu-chunks-crafted");
    const Trace original = cpuTrace();
    const test::ReportChunks good = test::splitReport(writtenBytes(original, dir / "good.rep"));
    const auto nodes = uint32_t(original.cpu.stacks.size());
    const long before = test::peakResidentKilobytes();
    auto refusedWith = [&](const std::string& name, const std::function<void(test::ReportChunks&)>& damage) {
        test::ReportChunks bad = good;
        damage(bad);
        return test::refusal(dir, name + ".rep", test::joinReport(bad));
    };
    auto everyStackChunk = [](test::ReportChunks& report, const std::function<void(rep::CpuStacks&)>& edit) {
        for (auto& [kind, chunk] : report.chunks)
            if (kind == ChunkKind::CpuStacks) edit(*chunk.mutable_cpu_stacks());
    };
    auto samples = [](test::ReportChunks & r) -> auto&
    {
        return *test::firstChunk(r, ChunkKind::CpuSampleBatch).mutable_cpu_samples();
    };
    auto states = [](test::ReportChunks & r) -> auto&
    {
        return *test::firstChunk(r, ChunkKind::ThreadStateBatch).mutable_thread_states();
    };

    CHECK_THAT(refusedWith("huge-claim",
                   [&](auto& r) {
                       everyStackChunk(r, [](rep::CpuStacks& s) { s.set_samples(uint64_t(1) << 40); });
                   }),
        Catch::Contains("claims more rows"));
    CHECK_THAT(refusedWith("disagree",
                   [](auto& r) {
                       int seen = 0;
                       for (auto& [kind, chunk] : r.chunks)
                           if (kind == ChunkKind::CpuStacks && seen++ == 1)
                               chunk.mutable_cpu_stacks()->set_states(7);
                   }),
        Catch::Contains("disagree"));
    CHECK_THAT(refusedWith("string-id",
                   [](auto& r) {
                       test::firstChunk(r, ChunkKind::CpuStacks)
                           .mutable_cpu_stacks()
                           ->set_frame_module(3, 1'000'000);
                   }),
        Catch::Contains("missing string"));
    CHECK_THAT(refusedWith("frame-id", [](auto& r) { nodeChunk(r).set_node_frame(0, 1'000'000); }),
        Catch::Contains("missing frame"));
    CHECK_THAT(refusedWith("caller-after",
                   [](auto& r) {
                       rep::CpuStacks& chunk = nodeChunk(r);
                       chunk.set_node_caller_distance(2, chunk.nodes_first() + 3);
                   }),
        Catch::Contains("caller comes after it"));
    CHECK_THAT(refusedWith("sample-stack", [&](auto& r) { samples(r).set_stack(5, nodes + 1); }),
        Catch::Contains("missing call stack"));
    CHECK_THAT(refusedWith("state-stack", [&](auto& r) { states(r).set_stack(5, nodes + 1); }),
        Catch::Contains("missing call stack"));
    CHECK_THAT(refusedWith("event-stack",
                   [&](auto& r) {
                       test::firstChunk(r, ChunkKind::EventStackBatch)
                           .mutable_event_stacks()
                           ->set_stack(0, nodes + 9);
                   }),
        Catch::Contains("missing call stack"));
    CHECK_THAT(refusedWith("sample-time", [&](auto& r) { samples(r).set_time_delta(1, -5); }),
        Catch::Contains("CPU samples are out of thread and time order"));
    CHECK_THAT(refusedWith("sample-thread",
                   [](auto& r) {
                       int seen = 0;
                       for (auto& [kind, chunk] : r.chunks)
                           if (kind == ChunkKind::CpuSampleBatch && seen++ == 1)
                               chunk.mutable_cpu_samples()->mutable_threads()->set_tid(0, 7);
                   }),
        Catch::Contains("CPU samples are out of thread and time order"));
    CHECK_THAT(refusedWith("state-overlap", [&](auto& r) { states(r).set_start_delta(1, -1); }),
        Catch::Contains("thread states overlap"));
    CHECK_THAT(refusedWith("state-empty", [&](auto& r) { states(r).set_duration(0, 0); }),
        Catch::Contains("does not end after it starts"));
    CHECK_THAT(refusedWith("state-wraps", [&](auto& r) { states(r).set_duration(0, ~uint64_t(0)); }),
        Catch::Contains("does not end after it starts"));
    CHECK_THAT(refusedWith("state-kind", [&](auto& r) { states(r).set_state(0, kThreadStateCount); }),
        Catch::Contains("unknown kind"));
    CHECK_THAT(refusedWith("thread-runs", [&](auto& r) { samples(r).mutable_threads()->set_length(0, 0); }),
        Catch::Contains("lists its threads wrongly"));
    CHECK_THAT(refusedWith("wrong-count", [&](auto& r) { samples(r).add_cpu(3); }),
        Catch::Contains("wrong number of rows"));
    CHECK_THAT(refusedWith("outside", [&](auto& r) { samples(r).set_first_index(uint64_t(1) << 50); }),
        Catch::Contains("lies outside the CPU profile"));
    CHECK_THAT(refusedWith("no-stacks",
                   [](auto& r) {
                       std::erase_if(r.chunks, [](const auto& c) { return c.first == ChunkKind::CpuStacks; });
                   }),
        Catch::Contains("without their call stacks"));
    CHECK_THAT(refusedWith("missing-batch",
                   [](auto& r) {
                       auto second = std::find_if(
                           r.chunks.begin(), r.chunks.end(), [seen = 0](const auto& c) mutable {
                               return c.first == ChunkKind::CpuSampleBatch && seen++ == 1;
                           });
                       r.chunks.erase(second);
                   }),
        Catch::Contains("do not cover the profile"));
    // A stored series may not claim to be derived, nor come from a source this build does not know.
    for (uint32_t source : {uint32_t(CounterSource::CpuUtilization), 9u})
        CHECK_THAT(refusedWith("source-" + std::to_string(source),
                       [&](auto& r) {
                           test::firstChunk(r, ChunkKind::CounterDefinitions)
                               .mutable_counter_definitions()
                               ->mutable_series(0)
                               ->set_source(source);
                       }),
            Catch::Contains("a report never stores"));

    CHECK(test::peakResidentKilobytes() - before < 256 * 1024);
}

TEST_CASE("a report cut inside its CPU samples keeps the samples' prefix", "[cpu]")
{
    const auto dir = test::scratchDir("cpu-chunks-cut");
    const Trace original = cpuTrace();
    const std::string bytes = writtenBytes(original, dir / "full.rep");
    const auto file = std::span(reinterpret_cast<const unsigned char*>(bytes.data()), bytes.size());
    const Result<rep::FrameIndex> index = rep::indexFrames(file, "full");
    REQUIRE(index);
    std::vector<uint64_t> sampleBatches;
    for (const rep::FrameRef& frame : index->frames)
        if (frame.header.kind == ChunkKind::CpuSampleBatch) sampleBatches.push_back(frame.offset);
    REQUIRE(sampleBatches.size() == 12);

    // Inside the third sample batch: the first two arrived whole; states and event stacks come later.
    const std::string path = (dir / "cut.rep").string();
    test::writeFileBytes(path, bytes.substr(0, sampleBatches[2] + 20));
    const Result<Trace> read = readReport(path);
    INFO(read.error());
    REQUIRE(read);
    const CpuProfile& cpu = read->cpu;
    CHECK(cpu.frames == original.cpu.frames);
    CHECK(cpu.stacks == original.cpu.stacks);
    CHECK(cpu.samplingPeriod == original.cpu.samplingPeriod);
    REQUIRE(cpu.samples.size() == 2 * kEntriesPerChunk);
    CHECK(std::equal(cpu.samples.begin(), cpu.samples.end(), original.cpu.samples.begin()));
    CHECK(cpu.states.empty());
    CHECK(cpu.eventStacks.empty());
    CHECK(read->eventCount() == original.eventCount());
    CHECK(derivedSeriesCount(read.value()) == 1); // only the first thread's samples arrived
    REQUIRE_FALSE(read->diagnostics.empty());
    CHECK_THAT(read->diagnostics.back().text,
        Catch::Contains("cut short") && Catch::Contains("9000 CPU samples, thread states and event stacks"));
}

TEST_CASE("the generator's CPU samples are deterministic and take the designed call paths", "[cpu]")
{
    const auto dir = test::scratchDir("cpu-chunks-generator");
    gen::GeneratorOptions options;
    options.events = 20000;
    options.gpuMetricsHz = 1000;
    options.cpuSamplesHz = 2000;
    const Trace trace = gen::generateTrace(options);
    const CpuProfile& cpu = trace.cpu;
    CHECK(cpu.samplingPeriod == 500'000);
    REQUIRE(cpu.samples.size() > 1000);

    std::map<std::string, size_t> leaves;
    for (const CpuSample& sample : cpu.samples) {
        REQUIRE(sample.stack < cpu.stacks.size());
        ++leaves[std::string(trace.strings[cpu.frames[cpu.stacks[sample.stack].frame].function])];
        // Every sample lies in a Running state of its thread.
        const auto states = cpu.threadStates(sample.tid, {sample.time, sample.time + 1});
        REQUIRE(states.size() == 1);
        REQUIRE(states[0].state == ThreadState::Running);
    }
    REQUIRE(leaves.size() == 3);
    // Exact shares in every thread's groups of ten: at most one group per thread is incomplete.
    const auto share = [&](const char* leaf, double expected) {
        return std::abs(double(leaves[leaf]) - expected * double(cpu.samples.size()))
            <= double(trace.threads.size());
    };
    CHECK(share("matmul_kernel_launch", 0.6));
    CHECK(share("decode_jpeg", 0.3));
    CHECK(share("__memcpy_avx_unaligned_erms", 0.1));
    for (const Thread& thread : trace.threads)
        CHECK(cpu.threadSamples(thread.tid, {INT64_MIN, INT64_MAX}).size() > 100);
    const auto waiting
        = std::count_if(cpu.states.begin(), cpu.states.end(), [](const ThreadStateInterval& s) {
              return (s.state == ThreadState::Sleeping || s.state == ThreadState::Blocked)
                  && s.stack != kNoCallStack;
          });
    CHECK(waiting > 0);
    CHECK(derivedSeriesCount(trace) == options.processes);

    // The same seed gives the same bytes; the report reads back whole, GPU metrics included.
    const std::string bytes = writtenBytes(trace, dir / "generated.rep");
    CHECK(writtenBytes(gen::generateTrace(options), dir / "again.rep") == bytes);
    const Result<Trace> read = readReport((dir / "generated.rep").string());
    REQUIRE(read);
    CHECK(test::firstDifference(trace, read.value()).empty());
}
