// The CPU recording file read back (collector/convert/cpu/perf_records.h): kernel records of a
// hand-built file parse into samples and thread events; a file cut short keeps its complete
// chunks; damaged records and foreign files give a sentence, never a crash.
#include "../../test_paths.h"
#include "collector/convert/cpu/perf_records.h"
#include "collector/perf/stack_trim.h"

#include <catch2/catch.hpp>
#include <cstring>
#include <fstream>
#include <linux/perf_event.h>

using namespace sightline;
using namespace sightline::collector;
namespace file = spool::cpu_recording;

namespace {

constexpr uint64_t kClockId = 77;

template <class T> void put(std::string& out, T value)
{
    out.append(reinterpret_cast<const char*>(&value), sizeof(value));
}

// A sample of the cpu-clock event at `time` on thread 42 with a two-frame user stack.
std::string sampleRecord(uint64_t time)
{
    std::string body;
    put(body, kClockId); // identifier
    put(body, uint64_t(0x401000)); // ip
    put(body, uint32_t(40)); // pid
    put(body, uint32_t(42)); // tid
    put(body, time);
    put(body, uint32_t(1)); // cpu
    put(body, uint32_t(0));
    put(body, uint64_t(3)); // callchain: the user marker and two addresses
    put(body, uint64_t(PERF_CONTEXT_USER));
    put(body, uint64_t(0x401000));
    put(body, uint64_t(0x402000));
    std::string record;
    put(record, perf_event_header {PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, uint16_t(8 + body.size())});
    return record + body;
}

std::string switchRecord(uint64_t time, bool out)
{
    std::string record;
    put(record,
        perf_event_header {PERF_RECORD_SWITCH, uint16_t(out ? PERF_RECORD_MISC_SWITCH_OUT : 0), 8 + 32});
    put(record, uint32_t(40));
    put(record, uint32_t(42));
    put(record, time);
    put(record, uint32_t(1));
    put(record, uint32_t(0));
    put(record, kClockId);
    return record;
}

constexpr uint64_t kPlainSamples = PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID
    | PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_CALLCHAIN;
constexpr uint64_t kStackSamples = kPlainSamples | PERF_SAMPLE_REGS_USER | PERF_SAMPLE_STACK_USER;
constexpr uint64_t kThreeRegisters = 0b1011;

// A sample as the recorder takes it by default: the chain, the user registers and a copy of
// the stack, of which the kernel found `used` bytes in use (the rest is the copy's slack).
std::string stackSampleRecord(
    uint64_t time, const std::vector<uint64_t>& registers, const std::string& stack, uint64_t used)
{
    std::string record = sampleRecord(time);
    put(record, uint64_t(PERF_SAMPLE_REGS_ABI_64));
    for (uint64_t r : registers)
        put(record, r);
    put(record, uint64_t(stack.size()));
    record += stack;
    if (!stack.empty()) put(record, used);
    const perf_event_header header {PERF_RECORD_SAMPLE, PERF_RECORD_MISC_USER, uint16_t(record.size())};
    memcpy(record.data(), &header, sizeof(header));
    return record;
}

// Three registers that are neither frame nor stack pointer, and `copied` bytes of copy.
std::string stackSampleRecord(uint64_t time, uint64_t copied, uint64_t used)
{
    std::string stack;
    for (uint64_t i = 0; i < copied; ++i)
        stack.push_back(char(i < used ? 'a' + i % 26 : 0));
    return stackSampleRecord(time, {0x7ffd0000ull, 0x7ffd0040ull, 0x401234ull}, stack, used);
}

std::string recording(
    const std::string& records, uint64_t sampleType = kPlainSamples, uint64_t registerMask = kThreeRegisters)
{
    std::string bytes;
    file::FileHeader header {};
    memcpy(header.magic, file::kMagic.data(), file::kMagic.size());
    header.version = file::kVersion;
    header.eventCount = 1;
    header.sampleType = sampleType;
    header.sampleRegsUser = sampleType & PERF_SAMPLE_REGS_USER ? registerMask : 0;
    header.sampleStackUser = sampleType & PERF_SAMPLE_STACK_USER ? 4096 : 0;
    header.samplingPeriodNs = 1'000'000;
    put(bytes, header);
    put(bytes, file::EventEntry {kClockId, uint32_t(file::EventRole::CpuClock), 1});
    put(bytes, uint32_t(1));
    put(bytes, uint32_t(records.size()));
    return bytes + records;
}

std::string written(const std::string& name, const std::string& bytes)
{
    const auto dir = test::scratchDir(name);
    const std::string path = (dir / file::kFileName).string();
    std::ofstream(path, std::ios::binary) << bytes;
    return path;
}

} // namespace

TEST_CASE("a CPU recording's kernel records parse into samples and switches", "[collector][cpu]")
{
    const std::string records = sampleRecord(2000) + switchRecord(1000, false) + switchRecord(3000, true);
    const Result<PerfRecording> read = readPerfRecording(written("perf_records_good", recording(records)));
    REQUIRE(read);
    REQUIRE(read.value().samples.size() == 1);
    const PerfSample& s = read.value().samples[0];
    CHECK((s.pid == 40 && s.tid == 42 && s.time == 2000 && s.cpu == 1 && !s.kernelIp));
    CHECK(std::vector<uint64_t>(s.userChain.begin(), s.userChain.end())
        == std::vector<uint64_t> {0x401000, 0x402000});
    REQUIRE(read.value().threadEvents.size() == 2);
    CHECK(read.value().threadEvents[0].kind == PerfThreadEvent::Kind::SwitchIn); // sorted by time
    CHECK(read.value().threadEvents[1].kind == PerfThreadEvent::Kind::SwitchOut);
    CHECK(read.value().diagnostics.empty());
}

TEST_CASE("a damaged, cut or foreign CPU recording gives a sentence, not a crash", "[collector][cpu]")
{
    const std::string good = recording(sampleRecord(2000) + switchRecord(3000, true));

    // Cut inside the chunk: nothing of it is trusted, and the sentence says so.
    const Result<PerfRecording> cut
        = readPerfRecording(written("perf_records_cut", good.substr(0, good.size() - 5)));
    REQUIRE(cut);
    CHECK(cut.value().samples.empty());
    REQUIRE(cut.value().diagnostics.size() == 1);
    CHECK(cut.value().diagnostics[0].find("cut short") != std::string::npos);

    // A callchain claiming more addresses than its record holds.
    std::string lying = sampleRecord(2000);
    const uint64_t huge = uint64_t(1) << 60;
    memcpy(lying.data() + 8 + 40, &huge, sizeof(huge));
    const Result<PerfRecording> damaged
        = readPerfRecording(written("perf_records_damaged", recording(lying)));
    REQUIRE(damaged);
    CHECK(damaged.value().samples.empty());
    REQUIRE(damaged.value().diagnostics.size() == 1);
    CHECK(damaged.value().diagnostics[0].find("damaged") != std::string::npos);

    // Every single-byte corruption of the records reads without crashing.
    for (size_t i = 48 + 16; i < good.size(); ++i) {
        std::string flipped = good;
        flipped[i] = char(flipped[i] ^ 0xA5);
        CHECK_NOTHROW(readPerfRecording(written("perf_records_flipped", flipped)));
    }

    const Result<PerfRecording> foreign
        = readPerfRecording(written("perf_records_foreign", std::string(100, 'x')));
    REQUIRE_FALSE(foreign);
    CHECK(foreign.error().find("not a CPU recording") != std::string::npos);
    CHECK(foreign.error().find(file::kFileName) != std::string::npos);
}

TEST_CASE("stack copies trimmed to their used bytes read back as the same samples", "[collector][cpu]")
{
    // 200 of 4096 bytes used (kept as 200), 3 used (kept as 8), none used, and a switch between.
    const std::string records = stackSampleRecord(1000, 4096, 200) + switchRecord(1500, true)
        + stackSampleRecord(2000, 4096, 3) + stackSampleRecord(3000, 4096, 0);
    std::vector<char> trimmed;
    appendTrimmedRecords(records, kStackSamples, kThreeRegisters, trimmed);
    CHECK(records.size() - trimmed.size() == (4096 - 200) + (4096 - 8) + (4096 + 8));

    const Result<PerfRecording> whole
        = readPerfRecording(written("perf_records_untrimmed", recording(records, kStackSamples)));
    const Result<PerfRecording> cut = readPerfRecording(written(
        "perf_records_trimmed", recording(std::string(trimmed.begin(), trimmed.end()), kStackSamples)));
    REQUIRE(whole);
    REQUIRE(cut);
    CHECK(cut.value().diagnostics.empty());
    REQUIRE(cut.value().samples.size() == 3);
    REQUIRE(whole.value().samples.size() == 3);
    for (size_t i = 0; i < 3; ++i) {
        const PerfSample& a = whole.value().samples[i];
        const PerfSample& b = cut.value().samples[i];
        CHECK(a.time == b.time);
        CHECK(std::vector<uint64_t>(a.userChain.begin(), a.userChain.end())
            == std::vector<uint64_t>(b.userChain.begin(), b.userChain.end()));
        CHECK(std::vector<uint64_t>(a.userRegisters.begin(), a.userRegisters.end())
            == std::vector<uint64_t>(b.userRegisters.begin(), b.userRegisters.end()));
        CHECK(a.userStack == b.userStack);
    }
    CHECK(cut.value().samples[0].userStack.size() == 200);
    CHECK(cut.value().samples[1].userStack == "abc");
    CHECK(cut.value().samples[2].userStack.empty());
    CHECK(cut.value().threadEvents.size() == 1);

    // Records of another shape, or a torn tail, pass through unchanged.
    std::vector<char> plain;
    const std::string torn = sampleRecord(1000) + std::string("\x09\x00", 2);
    appendTrimmedRecords(torn, kPlainSamples, 0, plain);
    CHECK(std::string(plain.begin(), plain.end()) == torn);
}

TEST_CASE(
    "a sample whose frame-pointer walk is whole keeps only its leaf's part of the copy", "[collector][cpu]")
{
    // The frame and stack pointers; the chain is the sampled instruction and one return address
    // (sampleRecord's), found in the frame at fp, whose saved frame pointer is null.
    constexpr uint64_t kFramePointers = uint64_t(1) << 6 | uint64_t(1) << 7;
    constexpr uint64_t sp = 0x7ffd0000, fp = sp + 1024;
    std::string stack(4096, '\x11');
    auto frameAt = [&](std::string& bytes, uint64_t savedFp, uint64_t returnAddress) {
        memcpy(bytes.data() + (fp - sp), &savedFp, 8);
        memcpy(bytes.data() + (fp - sp) + 8, &returnAddress, 8);
    };
    frameAt(stack, 0, 0x402000);
    std::string broken = stack; // the saved frame pointer goes on, past the copy
    frameAt(broken, sp + 8192, 0x402000);
    std::string mismatched = stack; // the frame holds another return address than the chain
    frameAt(mismatched, 0, 0x405000);
    const std::string records = stackSampleRecord(1000, {fp, sp}, stack, 4096)
        + stackSampleRecord(2000, {fp, sp}, broken, 4096)
        + stackSampleRecord(3000, {fp, sp}, mismatched, 4096);
    std::vector<char> trimmed;
    appendTrimmedRecords(records, kStackSamples, kFramePointers, trimmed);
    CHECK(records.size() - trimmed.size() == 4096 - kLeafStackBytes);

    const Result<PerfRecording> cut = readPerfRecording(written("perf_records_whole_walk",
        recording(std::string(trimmed.begin(), trimmed.end()), kStackSamples, kFramePointers)));
    REQUIRE(cut);
    REQUIRE(cut.value().samples.size() == 3);
    const PerfSample& whole = cut.value().samples[0];
    CHECK(whole.userStackCut);
    CHECK(whole.userStack == std::string_view(stack).substr(0, kLeafStackBytes));
    for (size_t i : {1, 2}) {
        CHECK_FALSE(cut.value().samples[i].userStackCut);
        CHECK(cut.value().samples[i].userStack.size() == 4096);
    }
}
