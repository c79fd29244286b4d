// Appending spool records (spool/spool_format.h) to a ThreadBuffer: reserve the fixed part
// plus text, fill it, commit. All inline, lock-free and malloc-free, for the hot paths.
#pragma once

#include "collector/inject/thread_buffer.h"
#include "collector/spool/spool_format.h"

#include <atomic>
#include <cstring>

namespace sightline::inject {

// Texts cut to kMaxTextBytes since the last drain (reported as a Loss record).
inline std::atomic<uint64_t> g_truncatedTexts {0};

inline uint32_t clampText(size_t length)
{
    if (length <= spool::kMaxTextBytes) [[likely]]
        return uint32_t(length);
    g_truncatedTexts.fetch_add(1, std::memory_order_relaxed);
    return spool::kMaxTextBytes;
}

// Reserves a record of type R followed by `textBytes` of text; fills its header. Null when the
// buffer is out of memory.
template <class R>
inline R* reserveRecord(ThreadBuffer& buffer, spool::RecordType type, uint32_t textBytes, uint32_t tid)
{
    const uint32_t bytes = spool::paddedRecordBytes(sizeof(R), textBytes);
    auto* record = static_cast<R*>(buffer.reserve(bytes));
    if (record) record->header = {type, uint16_t(bytes), tid};
    return record;
}

// Copies the text after the record's fixed part and publishes the record.
template <class R>
inline void commitRecord(ThreadBuffer& buffer, R* record, const char* text = nullptr, uint32_t textBytes = 0)
{
    if (textBytes) std::memcpy(reinterpret_cast<char*>(record + 1), text, textBytes);
    buffer.commit(record->header.bytes);
}

inline void emitThreadName(
    ThreadBuffer& buffer, uint32_t namedTid, spool::ThreadNameSource source, const char* text, size_t length)
{
    const uint32_t textBytes = clampText(length);
    auto* r
        = reserveRecord<spool::ThreadNameRecord>(buffer, spool::RecordType::ThreadName, textBytes, namedTid);
    if (!r) return;
    r->source = source;
    r->textBytes = textBytes;
    commitRecord(buffer, r, text, textBytes);
}

inline void emitOsCall(
    ThreadBuffer& buffer, uint16_t function, uint64_t startTicks, uint64_t endTicks, int64_t result)
{
    auto* r = reserveRecord<spool::OsCallRecord>(buffer, spool::RecordType::OsCall, 0, buffer.tid());
    if (!r) return;
    r->startTicks = startTicks;
    r->endTicks = endTicks;
    r->result = result;
    r->function = function;
    commitRecord(buffer, r);
}

inline void emitCaptureControl(ThreadBuffer& buffer, uint64_t ticks, bool start)
{
    auto* r = reserveRecord<spool::CaptureControlRecord>(
        buffer, spool::RecordType::CaptureControl, 0, buffer.tid());
    if (!r) return;
    r->ticks = ticks;
    r->start = start ? 1 : 0;
    r->reserved = 0;
    commitRecord(buffer, r);
}

inline void emitDiagnostic(ThreadBuffer& buffer, spool::Severity severity, const char* text)
{
    const uint32_t textBytes = clampText(std::strlen(text));
    auto* r = reserveRecord<spool::DiagnosticRecord>(buffer, spool::RecordType::Diagnostic, textBytes, 0);
    if (!r) return;
    r->severity = severity;
    r->textBytes = textBytes;
    commitRecord(buffer, r, text, textBytes);
}

} // namespace sightline::inject
