#include "collector/perf/stack_trim.h"

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

// Where the stack copy's size field lies in `record`, or 0 where the sample has none or does not
// parse.
size_t stackSizeOffset(std::string_view record, uint64_t sampleType, uint32_t registerCount)
{
    size_t at = sizeof(perf_event_header);
    for (const auto& field : kFixedFields)
        if (sampleType & field.bit) at += field.bytes;
    if ((sampleType & PERF_SAMPLE_CALLCHAIN) != 0) {
        if (at + 8 > record.size()) return 0;
        const uint64_t count = wordAt(record, at);
        if (count > record.size() / 8) return 0;
        at += 8 + count * 8;
    }
    if ((sampleType & PERF_SAMPLE_REGS_USER) != 0) {
        if (at + 8 > record.size()) return 0;
        const uint64_t abi = wordAt(record, at);
        at += 8 + (abi != PERF_SAMPLE_REGS_ABI_NONE ? size_t(registerCount) * 8 : 0);
    }
    return at + 8 <= record.size() ? at : 0;
}

void appendBytes(std::vector<char>& out, const void* data, size_t bytes)
{
    const char* begin = static_cast<const char*>(data);
    out.insert(out.end(), begin, begin + bytes);
}

// Appends one sample with its stack copy cut to what was used; false when it does not parse.
bool appendTrimmedSample(
    std::string_view record, uint64_t sampleType, uint32_t registerCount, std::vector<char>& out)
{
    const size_t sizeAt = stackSizeOffset(record, sampleType, registerCount);
    if (sizeAt == 0) return false;
    const uint64_t copied = wordAt(record, sizeAt);
    if (copied == 0) return false; // nothing to trim
    const size_t dataAt = sizeAt + 8;
    if (copied > record.size() || dataAt + copied + 8 > record.size()) return false;
    const uint64_t used = std::min(wordAt(record, dataAt + copied), copied);
    const uint64_t kept = (used + 7) / 8 * 8;
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
        appendBytes(out, &used, 8);
    }
    appendBytes(out, record.data() + tailAt, record.size() - tailAt);
    return true;
}

} // namespace

void appendTrimmedRecords(
    std::string_view records, uint64_t sampleType, uint32_t registerCount, std::vector<char>& out)
{
    const bool trims = (sampleType & PERF_SAMPLE_STACK_USER) != 0 && (sampleType & kUnparsed) == 0;
    size_t at = 0;
    while (at + sizeof(perf_event_header) <= records.size()) {
        perf_event_header header;
        memcpy(&header, records.data() + at, sizeof(header));
        if (header.size < sizeof(header) || at + header.size > records.size()) break;
        const std::string_view record = records.substr(at, header.size);
        if (!trims || header.type != PERF_RECORD_SAMPLE
            || !appendTrimmedSample(record, sampleType, registerCount, out))
            appendBytes(out, record.data(), record.size());
        at += header.size;
    }
    appendBytes(out, records.data() + at, records.size() - at); // a torn tail, as it came
}

} // namespace sightline::collector
