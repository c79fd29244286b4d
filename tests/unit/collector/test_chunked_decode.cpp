// The launcher finds a spool file's records in ranges walked in parallel (spool_scan.h), decodes
// them in chunks on several threads and joins the chunks in order (chunk_decoder.h). Whatever
// the chunk size, down to one record per chunk, the records found must be those of a single
// walk, damaged files included, and the report the one a single pass gives, byte for byte: NVTX
// ranges whose push and pop fall in different chunks, start/end ranges ended on another thread,
// string ids, attribute ids and thread names included.
#include "../../test_paths.h"
#include "collector/convert/assemble/spool_merge.h"
#include "collector/convert/decode/spool_reader.h"
#include "collector/spool/os_functions.h"
#include "collector_test_support.h"
#include "model/format/report_io.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <iterator>
#include <random>

using namespace sightline;
using namespace sightline::test;
using sightline::collector::mergeSpools;
using sightline::collector::SessionInfo;

namespace {

// ticks = 2 * ns + 500: a 2 GHz TSC.
uint64_t ticks(int64_t ns)
{
    return uint64_t(2 * ns + 500);
}

// What the generator wrote, to check the report against.
struct Expected
{
    size_t nvtxEvents = 0;
    size_t osCalls = 0;
    size_t apiCalls = 0;
};

// One process: four threads whose records interleave in blocks, as the writer drains them, with
// nested plain and attributed pushes (some popped blocks later), a domain with registered
// strings, marks, start/end ranges ended by another thread, pops without a push, OS calls above
// and below the threshold, CUDA API calls and kernels, thread names and ranges left open.
SpoolBuilder recording(uint32_t pid, uint64_t firstRangeId, Expected& expected)
{
    SpoolBuilder spool(pid, spool::TickSource::Tsc);
    spool.addClockSync(ticks(0), 0);
    spool.addClockSync(ticks(10'000'000), 10'000'000);
    spool.addProcessText(spool::ProcessTextKind::CommandLineArg, "./app");
    spool.addString(1, "registered-a");
    spool.addString(2, "registered-b");
    spool.addString(3, "cudaLaunchKernel");
    spool.addString(4, "_Z6kernelPfi");
    spool::NvtxDomainRecord domain {};
    domain.domain = 9;
    domain.textBytes = 4;
    spool.add(spool::RecordType::NvtxDomain, domain, "comm");

    std::mt19937 random(12345);
    auto pick = [&random](int n) { return int(random() % uint32_t(n)); };
    const char* names[] = {"step", "forward", "backward", "a-rather-longer-range-name", "x"};
    std::vector<int> depth(4, 0);
    std::vector<int> domainDepth(4, 0);
    std::vector<uint64_t> openRanges;
    int64_t now = 1000;
    uint32_t correlation = 1;
    for (int block = 0; block < 120; ++block) {
        const uint32_t thread = uint32_t(pick(4));
        const uint32_t tid = pid + thread;
        for (int n = 0; n < 1 + pick(12); ++n) {
            now += 1 + pick(50);
            switch (pick(10)) {
            case 0:
            case 1: {
                const std::string_view text = names[pick(5)];
                spool::NvtxPushPlainRecord r {};
                r.ticks = ticks(now);
                spool.add(spool::RecordType::NvtxPushPlain, r, text, tid);
                ++depth[thread];
                break;
            }
            case 2: {
                spool::NvtxPushRecord r {};
                r.ticks = ticks(now);
                const bool inDomain = pick(2) == 0;
                r.fields.domain = inDomain ? 9 : 0;
                r.fields.hasColor = 1;
                r.fields.color = 0xFF000000u | uint32_t(pick(3));
                r.fields.payloadType = uint8_t(PayloadType::Int64);
                r.fields.payload = uint64_t(pick(2));
                const std::string_view text = names[pick(5)];
                if (pick(2) == 0) {
                    r.fields.messageKind = spool::NvtxMessageKind::Registered;
                    r.fields.registeredId = 1 + uint32_t(pick(2));
                    spool.add(spool::RecordType::NvtxPush, r, {}, tid);
                } else {
                    r.fields.messageKind = spool::NvtxMessageKind::Inline;
                    r.fields.textBytes = uint32_t(text.size());
                    spool.add(spool::RecordType::NvtxPush, r, text, tid);
                }
                ++(inDomain ? domainDepth : depth)[thread];
                break;
            }
            case 3:
            case 4: {
                if (depth[thread] == 0 && pick(4) != 0) break; // now and then a pop without a push
                spool::NvtxPopPlainRecord r {};
                r.ticks = ticks(now);
                spool.add(spool::RecordType::NvtxPopPlain, r, {}, tid);
                if (depth[thread] > 0) --depth[thread], ++expected.nvtxEvents;
                break;
            }
            case 5: {
                if (domainDepth[thread] == 0) break;
                spool::NvtxPopRecord r {};
                r.ticks = ticks(now);
                r.domain = 9;
                spool.add(spool::RecordType::NvtxPop, r, {}, tid);
                --domainDepth[thread], ++expected.nvtxEvents;
                break;
            }
            case 6: {
                if (!openRanges.empty() && pick(2) == 0) { // ended on whichever thread runs now
                    spool::NvtxEndRecord r {};
                    r.ticks = ticks(now);
                    r.rangeId = openRanges.back();
                    openRanges.pop_back();
                    spool.add(spool::RecordType::NvtxEnd, r, {}, tid);
                    break;
                }
                spool::NvtxStartRecord r {};
                r.ticks = ticks(now);
                r.rangeId = firstRangeId + uint64_t(block * 100 + n); // unique in the process
                r.fields.messageKind = spool::NvtxMessageKind::Registered;
                r.fields.registeredId = 2;
                r.fields.category = uint32_t(pick(3));
                spool.add(spool::RecordType::NvtxStart, r, {}, tid);
                openRanges.push_back(r.rangeId);
                ++expected.nvtxEvents;
                break;
            }
            case 7: {
                spool::NvtxMarkRecord r {};
                r.ticks = ticks(now);
                r.fields.messageKind = spool::NvtxMessageKind::Inline;
                r.fields.textBytes = 4;
                spool.add(spool::RecordType::NvtxMark, r, "mark", tid);
                ++expected.nvtxEvents;
                break;
            }
            case 8: {
                spool::OsCallRecord r {};
                const int64_t length = pick(2) == 0 ? 100 : 5000; // below, above the threshold
                r.startTicks = ticks(now);
                r.endTicks = ticks(now + length);
                r.function = uint16_t(pick(2) == 0 ? spool::OsFunction::read : spool::OsFunction::write);
                spool.add(spool::RecordType::OsCall, r, {}, tid);
                expected.osCalls += length >= 1000 ? 1 : 0;
                break;
            }
            default: {
                spool::CudaApiRecord api {};
                api.startNs = now;
                api.endNs = now + 20;
                api.correlation = correlation;
                api.nameId = 3;
                spool.add(spool::RecordType::CudaApi, api, {}, tid);
                ++expected.apiCalls;
                spool::CudaKernelRecord kernel {};
                kernel.startNs = now + 30;
                kernel.endNs = now + 60;
                kernel.context = 1, kernel.stream = 7, kernel.correlation = correlation++;
                kernel.nameId = 4;
                kernel.grid[0] = kernel.block[0] = 32;
                spool.add(spool::RecordType::CudaKernel, kernel);
                break;
            }
            }
        }
        if (block == 60) {
            spool::ThreadNameRecord name {};
            name.source = spool::ThreadNameSource::Nvtx, name.textBytes = 6;
            spool.add(spool::RecordType::ThreadName, name, "worker", tid);
        }
    }
    for (int d : depth)
        expected.nvtxEvents += size_t(d); // closed at the process's last event
    for (int d : domainDepth)
        expected.nvtxEvents += size_t(d);
    return spool;
}

size_t countEvents(const Trace& trace, TrackKind kind)
{
    size_t n = 0;
    for (const Track& t : trace.tracks)
        n += t.key.kind == kind ? t.size() : 0;
    return n;
}

// A spool whose texts hold runs of words that read as valid records (an unknown type, 8 bytes
// long, and clock pairs), so that a range walk guessing its start inside them follows a false
// chain for a while.
SpoolBuilder misleadingRecording(uint32_t pid)
{
    SpoolBuilder spool(pid, spool::TickSource::MonotonicNs);
    std::string decoys;
    for (int i = 0; i < 40; ++i) {
        const spool::RecordHeader decoy {spool::RecordType(63), 8, uint32_t(i)};
        decoys.append(reinterpret_cast<const char*>(&decoy), sizeof(decoy));
        if (i % 10 == 5) {
            spool::ClockSyncRecord pair {};
            pair.header = {spool::RecordType::ClockSync, sizeof(pair), 0};
            decoys.append(reinterpret_cast<const char*>(&pair), sizeof(pair));
        }
    }
    for (int i = 0; i < 300; ++i) {
        if (i % 50 == 0) spool.addClockSync(uint64_t(i), i);
        if (i % 70 == 0) spool.addString(uint32_t(i + 1), "string " + std::to_string(i));
        spool::NvtxPushRecord push {};
        push.ticks = uint64_t(100 * i);
        push.fields.messageKind = spool::NvtxMessageKind::Inline;
        const std::string_view text = i % 3 == 0 ? std::string_view(decoys) : std::string_view("short");
        push.fields.textBytes = uint32_t(text.size());
        spool.add(spool::RecordType::NvtxPush, push, text, pid);
        spool::NvtxPopPlainRecord pop {};
        pop.ticks = uint64_t(100 * i + 50);
        spool.add(spool::RecordType::NvtxPopPlain, pop, {}, pid);
    }
    return spool;
}

// What a reading found, in a form two readings of the same bytes can be compared by.
struct Found
{
    std::vector<std::tuple<uint16_t, uint16_t, uint32_t>> records; // type, bytes, tid
    bool truncated = false;
    size_t count = 0, tables = 0, clockPairs = 0, pushes = 0, unknown = 0;
    friend bool operator==(const Found&, const Found&) = default;
};

Found found(const collector::SpoolFile& file)
{
    Found f;
    file.forEach(
        [&f](const spool::RecordHeader& r) { f.records.emplace_back(uint16_t(r.type), r.bytes, r.tid); });
    f.truncated = file.truncated;
    f.count = file.recordCount();
    f.unknown = file.count(spool::RecordType(63));
    f.tables = file.tables().size();
    f.clockPairs = file.clockPairs().size();
    f.pushes = file.count(spool::RecordType::NvtxPush);
    // The chunks hold the same records, in order, and count them right.
    size_t index = 0, pushes = 0;
    for (size_t c = 0; c < file.chunkCount(); ++c) {
        file.forEachInChunk(c, [&](const spool::RecordHeader& r) {
            CHECK(index < f.records.size());
            if (index < f.records.size()) CHECK(std::get<1>(f.records[index]) == r.bytes);
            ++index;
        });
        pushes += file.count(c, spool::RecordType::NvtxPush);
    }
    CHECK(index == f.records.size());
    CHECK(pushes == f.pushes);
    return f;
}

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

} // namespace

TEST_CASE("a spool decoded in chunks on several threads gives the report of a single pass")
{
    const auto dir = scratchDir("collector-chunked-decode");
    Expected expected;
    recording(800, 1000, expected).writeTo((dir / "800.spool").string());
    Expected exec; // the same process after exec: a second image, new string ids
    recording(800, 1'000'000, exec).writeTo((dir / "800.1.spool").string());

    auto report = [&](size_t chunkBytes, collector::CaptureMode mode, const std::string& name) {
        SessionInfo info;
        info.spoolDir = dir.string();
        info.start = {0, 0, 1'700'000'000'000'000'000};
        info.end = {0, 10'000'000, 0};
        info.targetPid = 800;
        info.command = {"./app"};
        info.queryHost = false;
        info.options.osrtThresholdNs = 1000;
        info.options.capture.mode = mode;
        info.options.capture.nvtxRange = "forward";
        info.spoolChunkBytes = chunkBytes;
        const auto merged = mergeSpools(info);
        const auto path = dir.parent_path() / (name + ".rep");
        REQUIRE(writeReport(merged.trace, path.string()).ok());
        return std::pair {merged.trace.eventCount(TrackKind::Nvtx), readFile(path)};
    };

    for (auto mode : {collector::CaptureMode::None, collector::CaptureMode::Nvtx}) {
        const auto [events, whole] = report(SIZE_MAX, mode, "chunked-whole");
        if (mode == collector::CaptureMode::None) {
            CHECK(events == expected.nvtxEvents + exec.nvtxEvents);
        } else {
            CHECK(events > 0);
            CHECK(events < expected.nvtxEvents + exec.nvtxEvents);
        }
        for (size_t chunkBytes : {size_t(8), size_t(64), size_t(1000)}) {
            INFO("chunks of " << chunkBytes << " bytes, capture mode " << int(mode));
            CHECK(report(chunkBytes, mode, "chunked-" + std::to_string(chunkBytes)).second == whole);
        }
    }

    SessionInfo info;
    info.spoolDir = dir.string();
    info.end = {0, 10'000'000, 0};
    info.targetPid = 800;
    info.command = {"./app"};
    info.queryHost = false;
    info.options.osrtThresholdNs = 1000;
    info.spoolChunkBytes = 64;
    const Trace trace = mergeSpools(info).trace;
    CHECK(countEvents(trace, TrackKind::OsRuntime) == expected.osCalls + exec.osCalls);
    CHECK(countEvents(trace, TrackKind::CudaApi) == expected.apiCalls + exec.apiCalls);
    CHECK(countEvents(trace, TrackKind::Kernels) == expected.apiCalls + exec.apiCalls);
    const Thread* worker = nullptr;
    for (const Thread& t : trace.threads)
        if (t.name == "worker") worker = &t;
    CHECK(worker);
}

TEST_CASE("a spool's records are found in parallel ranges as in one walk even when it is damaged")
{
    const auto dir = scratchDir("collector-range-scan");
    const std::vector<unsigned char> whole = misleadingRecording(900).bytes();
    const size_t middle = whole.size() / 2 / 8 * 8;
    auto write = [&dir](const std::string& name, std::vector<unsigned char> bytes) {
        const auto path = dir / name;
        std::ofstream(path, std::ios::binary)
            .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
        return path.string();
    };
    std::vector<unsigned char> cut(whole.begin(), whole.end() - 13);
    // A record in the middle made invalid (a size that is not a multiple of 8).
    std::vector<unsigned char> damaged = whole;
    size_t offset = sizeof(spool::FileHeader);
    while (offset < middle) {
        uint16_t bytes;
        std::memcpy(&bytes, &whole[offset + 2], sizeof(bytes));
        offset += bytes;
    }
    const uint16_t odd = 12;
    std::memcpy(&damaged[offset + 2], &odd, sizeof(odd));

    for (const auto& [name, bytes] : {std::pair {"whole", whole}, {"cut", cut}, {"damaged", damaged}}) {
        const std::string path = write(std::string(name) + ".spool", bytes);
        const auto single = collector::readSpoolFile(path, SIZE_MAX);
        REQUIRE(single);
        const Found expected = found(single.value());
        CHECK(expected.truncated == (std::string(name) != "whole"));
        CHECK(expected.records.size() > 10);
        for (size_t rangeBytes :
            {size_t(8), size_t(16), size_t(40), size_t(256), size_t(1000), size_t(4096)}) {
            INFO(name << " in ranges of " << rangeBytes << " bytes");
            const auto ranged = collector::readSpoolFile(path, rangeBytes);
            REQUIRE(ranged);
            CHECK(found(ranged.value()) == expected);
        }
    }
}
