#include "collector/convert/decode/spool_records.h"

#include <array>
#include <cstddef>
#include <cstring>

namespace sightline::collector {

namespace {

using spool::RecordType;

template <class R> TextSpan textAfter(uint32_t textBytes)
{
    return {uint32_t(sizeof(R)), textBytes};
}

// The smallest size a record of a known type may have (records may grow in later minors).
constexpr uint32_t minimumBytes(RecordType type)
{
    switch (type) {
    case RecordType::ClockSync:
        return sizeof(spool::ClockSyncRecord);
    case RecordType::String:
        return sizeof(spool::StringRecord);
    case RecordType::ProcessText:
        return sizeof(spool::ProcessTextRecord);
    case RecordType::ThreadName:
        return sizeof(spool::ThreadNameRecord);
    case RecordType::Loss:
        return sizeof(spool::LossRecord);
    case RecordType::Diagnostic:
        return sizeof(spool::DiagnosticRecord);
    case RecordType::CaptureControl:
        return sizeof(spool::CaptureControlRecord);
    case RecordType::NvtxDomain:
        return sizeof(spool::NvtxDomainRecord);
    case RecordType::NvtxCategory:
        return sizeof(spool::NvtxCategoryRecord);
    case RecordType::NvtxPush:
        return sizeof(spool::NvtxPushRecord);
    case RecordType::NvtxPushPlain:
        return sizeof(spool::NvtxPushPlainRecord);
    case RecordType::NvtxPopPlain:
        return sizeof(spool::NvtxPopPlainRecord);
    case RecordType::NvtxPop:
        return sizeof(spool::NvtxPopRecord);
    case RecordType::NvtxStart:
        return sizeof(spool::NvtxStartRecord);
    case RecordType::NvtxEnd:
        return sizeof(spool::NvtxEndRecord);
    case RecordType::NvtxMark:
        return sizeof(spool::NvtxMarkRecord);
    case RecordType::OsCall:
        return sizeof(spool::OsCallRecord);
    case RecordType::CudaApi:
        return sizeof(spool::CudaApiRecord);
    case RecordType::CudaKernel:
        return sizeof(spool::CudaKernelRecord);
    case RecordType::CudaMemcpy:
        return sizeof(spool::CudaMemcpyRecord);
    case RecordType::CudaMemset:
        return sizeof(spool::CudaMemsetRecord);
    case RecordType::CudaMemoryUsage:
        return sizeof(spool::CudaMemoryUsageRecord);
    case RecordType::CudaSync:
        return sizeof(spool::CudaSyncRecord);
    case RecordType::CudaDevice:
        return sizeof(spool::CudaDeviceRecord);
    case RecordType::CudaContext:
        return sizeof(spool::CudaContextRecord);
    case RecordType::CudaStream:
        return sizeof(spool::CudaStreamRecord);
    case RecordType::CudaVersions:
        return sizeof(spool::CudaVersionsRecord);
    }
    return sizeof(spool::RecordHeader);
}

constexpr bool hasTextField(RecordType type)
{
    switch (type) {
    case RecordType::String:
    case RecordType::ProcessText:
    case RecordType::ThreadName:
    case RecordType::Diagnostic:
    case RecordType::NvtxDomain:
    case RecordType::NvtxCategory:
    case RecordType::NvtxPush:
    case RecordType::NvtxMark:
    case RecordType::NvtxStart:
        return true;
    default: // a plain push's text is what precedes its padding: it always fits
        return false;
    }
}

// What validRecord checks, per type number, looked up rather than switched on: every record
// of a file is checked before decoding can start.
struct TypeRule
{
    uint16_t minimumBytes = sizeof(spool::RecordHeader);
    bool textField = false; // a text length to check against the record's size
};
constexpr size_t kRuleCount = 64;
constexpr std::array<TypeRule, kRuleCount> kTypeRules = [] {
    std::array<TypeRule, kRuleCount> rules {};
    for (uint16_t t = 0; t < kRuleCount; ++t)
        rules[t] = {uint16_t(minimumBytes(RecordType(t))), hasTextField(RecordType(t))};
    return rules;
}();

} // namespace

TextSpan textSpan(const spool::RecordHeader& h)
{
    const auto* base = reinterpret_cast<const unsigned char*>(&h);
    auto field = [base](size_t offset) {
        uint32_t value;
        std::memcpy(&value, base + offset, sizeof(value));
        return value;
    };
    switch (h.type) {
    case RecordType::String:
        return textAfter<spool::StringRecord>(field(offsetof(spool::StringRecord, textBytes)));
    case RecordType::ProcessText:
        return textAfter<spool::ProcessTextRecord>(field(offsetof(spool::ProcessTextRecord, textBytes)));
    case RecordType::ThreadName:
        return textAfter<spool::ThreadNameRecord>(field(offsetof(spool::ThreadNameRecord, textBytes)));
    case RecordType::Diagnostic:
        return textAfter<spool::DiagnosticRecord>(field(offsetof(spool::DiagnosticRecord, textBytes)));
    case RecordType::NvtxDomain:
        return textAfter<spool::NvtxDomainRecord>(field(offsetof(spool::NvtxDomainRecord, textBytes)));
    case RecordType::NvtxCategory:
        return textAfter<spool::NvtxCategoryRecord>(field(offsetof(spool::NvtxCategoryRecord, textBytes)));
    case RecordType::NvtxPush:
        return textAfter<spool::NvtxPushRecord>(
            field(offsetof(spool::NvtxPushRecord, fields) + offsetof(spool::NvtxFields, textBytes)));
    case RecordType::NvtxMark:
        return textAfter<spool::NvtxMarkRecord>(
            field(offsetof(spool::NvtxMarkRecord, fields) + offsetof(spool::NvtxFields, textBytes)));
    case RecordType::NvtxPushPlain: {
        const auto* text = reinterpret_cast<const char*>(base) + sizeof(spool::NvtxPushPlainRecord);
        const uint32_t room = h.bytes >= sizeof(spool::NvtxPushPlainRecord)
            ? h.bytes - sizeof(spool::NvtxPushPlainRecord)
            : 0;
        return {uint32_t(sizeof(spool::NvtxPushPlainRecord)), uint32_t(strnlen(text, room))};
    }
    case RecordType::NvtxStart:
        return textAfter<spool::NvtxStartRecord>(
            field(offsetof(spool::NvtxStartRecord, fields) + offsetof(spool::NvtxFields, textBytes)));
    default:
        return {};
    }
}

bool validRecord(const spool::RecordHeader& h)
{
    const TypeRule rule = uint16_t(h.type) < kRuleCount ? kTypeRules[uint16_t(h.type)] : TypeRule {};
    if (h.bytes < rule.minimumBytes || h.bytes % 8 != 0) return false;
    if (!rule.textField) return true;
    const TextSpan span = textSpan(h);
    return span.offset + span.bytes <= h.bytes;
}

} // namespace sightline::collector
