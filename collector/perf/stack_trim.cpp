#include "collector/perf/stack_trim.h"

#include "collector/spool/frame_pointer_walk.h"

#include <algorithm>
#include <bit>
#include <cstring>
#include <linux/perf_event.h>

namespace sightline::collector {

namespace {

// The sample fields ahead of the callchain that this recorder may ask for, in the kernel's order,
// with their sizes. Fields it never asks for (READ, RAW, BRANCH_STACK) leave the record unparsed.
constexpr struct
{
    uint64_t bit;
    size_t bytes;
} kFixedFields[] = {
    {PERF_SAMPLE_IDENTIFIER, 8},
    {PERF_SAMPLE_IP, 8},
    {PERF_SAMPLE_TID, 8},
    {PERF_SAMPLE_TIME, 8},
    {PERF_SAMPLE_ADDR, 8},
    {PERF_SAMPLE_ID, 8},
    {PERF_SAMPLE_STREAM_ID, 8},
    {PERF_SAMPLE_CPU, 8},
    {PERF_SAMPLE_PERIOD, 8},
};
constexpr uint64_t kUnparsed = PERF_SAMPLE_READ | PERF_SAMPLE_RAW | PERF_SAMPLE_BRANCH_STACK;

uint64_t wordAt(std::string_view record, size_t offset)
{
    uint64_t word = 0;
    memcpy(&word, record.data() + offset, sizeof(word));
    return word;
}

// Where a sample's parts lie; sizeAt 0 when it has no stack copy or does not parse.
struct SampleLayout
{
    std::vector<uint64_t> userChain; // the entries after PERF_CONTEXT_USER
    std::vector<uint64_t> registers;
    size_t sizeAt = 0; // of the stack copy's size field
    uint32_t pid = 0;
};

SampleLayout layoutOf(std::string_view record, uint64_t sampleType, uint64_t registerMask)
{
    SampleLayout layout;
    size_t at = sizeof(perf_event_header);
    for (const auto& field : kFixedFields)
        if (sampleType & field.bit) {
            if (field.bit == PERF_SAMPLE_TID && at + 4 <= record.size())
                memcpy(&layout.pid, record.data() + at, 4);
            at += field.bytes;
        }
    if ((sampleType & PERF_SAMPLE_CALLCHAIN) != 0) {
        if (at + 8 > record.size()) return {};
        const uint64_t count = wordAt(record, at);
        if (count > (record.size() - at - 8) / 8) return {};
        bool user = false;
        for (uint64_t i = 0; i < count; ++i) {
            const uint64_t entry = wordAt(record, at + 8 + i * 8);
            if (entry >= uint64_t(PERF_CONTEXT_MAX)) {
                user = entry == uint64_t(PERF_CONTEXT_USER);
                continue;
            }
            if (user) layout.userChain.push_back(entry);
        }
        at += 8 + count * 8;
    }
    if ((sampleType & PERF_SAMPLE_REGS_USER) != 0) {
        if (at + 8 > record.size()) return {};
        const bool present = wordAt(record, at) != PERF_SAMPLE_REGS_ABI_NONE;
        at += 8;
        const size_t count = present ? size_t(std::popcount(registerMask)) : 0;
        if (at + count * 8 > record.size()) return {};
        for (size_t i = 0; i < count; ++i)
            layout.registers.push_back(wordAt(record, at + i * 8));
        at += count * 8;
    }
    if (at + 8 <= record.size()) layout.sizeAt = at;
    return layout;
}

// Whether the kernel's walk of this sample reached its thread's outermost frame.
bool wholeWalk(const SampleLayout& layout, uint64_t registerMask, std::string_view stack)
{
    uint64_t fp = 0, sp = 0;
    return spool::perfRegisterValue(
               layout.registers.data(), layout.registers.size(), registerMask, spool::kPerfRegisterBp, fp)
        && spool::perfRegisterValue(
            layout.registers.data(), layout.registers.size(), registerMask, spool::kPerfRegisterSp, sp)
        && spool::walkEndsOnNullFramePointer(fp, sp, stack, layout.userChain.data(), layout.userChain.size());
}

void appendBytes(std::vector<char>& out, const void* data, size_t bytes)
{
    const char* begin = static_cast<const char*>(data);
    out.insert(out.end(), begin, begin + bytes);
}

// Appends one sample with its stack copy cut; false when it does not parse or has no copy.
bool appendTrimmedSample(std::string_view record, uint64_t sampleType, uint64_t registerMask,
    std::vector<char>& out, const std::function<bool(uint32_t pid)>& keepsCopy)
{
    const SampleLayout layout = layoutOf(record, sampleType, registerMask);
    const size_t sizeAt = layout.sizeAt;
    if (sizeAt == 0) return false;
    const uint64_t copied = wordAt(record, sizeAt);
    if (copied == 0) return false; // nothing to cut
    const size_t dataAt = sizeAt + 8;
    if (copied > record.size() || dataAt + copied + 8 > record.size()) return false;
    const uint64_t dynamic = wordAt(record, dataAt + copied);
    const uint64_t used = std::min(dynamic, copied);
    const std::string_view stack(record.data() + dataAt, used);
    const bool cut = wholeWalk(layout, registerMask, stack) && !(keepsCopy && keepsCopy(layout.pid));
    const uint64_t wanted = cut ? std::min(used, kLeafStackBytes) : used;
    const uint64_t kept = (wanted + 7) / 8 * 8;
    const size_t tailAt = dataAt + copied + 8; // fields after the stack copy, kept as they are
    perf_event_header header;
    memcpy(&header, record.data(), sizeof(header));
    const size_t removed = size_t(copied - kept) + (kept == 0 ? 8 : 0); // no dyn_size after size 0
    header.size = uint16_t(record.size() - removed);
    appendBytes(out, &header, sizeof(header));
    appendBytes(out, record.data() + sizeof(header), sizeAt - sizeof(header));
    appendBytes(out, &kept, 8);
    if (kept > 0) {
        appendBytes(out, record.data() + dataAt, kept);
        appendBytes(out, &dynamic, 8);
    }
    appendBytes(out, record.data() + tailAt, record.size() - tailAt);
    return true;
}

} // namespace

void appendTrimmedRecords(std::string_view records, uint64_t sampleType, uint64_t registerMask,
    std::vector<char>& out, const std::function<bool(uint32_t pid)>& keepsCopy)
{
    const bool trims = (sampleType & PERF_SAMPLE_STACK_USER) != 0 && (sampleType & kUnparsed) == 0;
    size_t at = 0;
    while (at + sizeof(perf_event_header) <= records.size()) {
        perf_event_header header;
        memcpy(&header, records.data() + at, sizeof(header));
        if (header.size < sizeof(header) || at + header.size > records.size()) break;
        const std::string_view record = records.substr(at, header.size);
        if (!trims || header.type != PERF_RECORD_SAMPLE
            || !appendTrimmedSample(record, sampleType, registerMask, out, keepsCopy))
            appendBytes(out, record.data(), record.size());
        at += header.size;
    }
    appendBytes(out, records.data() + at, records.size() - at); // a torn tail, as it came
}

} // namespace sightline::collector
