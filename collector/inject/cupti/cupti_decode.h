// The seam between CUPTI and the spool: one CUPTI activity record in, at most one spool record
// out. Kept free of CUPTI calls and of our buffers so unit tests feed it hand-built records.
//
// Records are read through the field layout shared by every struct version CUPTI 12 and 13
// fill (fields are only ever appended: Kernel9 and Kernel10 agree up to localMemoryTotal_v2,
// Memcpy5 and Memcpy6 up to graphId, ...). CUPTI's enums are mapped onto the model's values
// here, and timestamps are moved onto CLOCK_MONOTONIC by `timestampOffsetNs` (cupti_clock.h;
// 0 when CUPTI uses our timestamp callback).
#pragma once

#include "collector/spool/spool_format.h"

#include <cstdint>
#include <cupti.h>
#include <string_view>

namespace sightline::inject::cupti {

// What decoding needs from the process: string interning and API names.
class DecodeEnvironment
{
public:
    virtual ~DecodeEnvironment() = default;
    // The id of a kernel's mangled name; CUPTI passes one stable pointer per kernel.
    virtual uint32_t internKernelName(const char* mangled) = 0;
    virtual uint32_t internText(const char* text) = 0;
    // The id of the function name of a runtime or driver callback id ("cudaLaunchKernel").
    virtual uint32_t apiName(spool::ApiClass apiClass, uint32_t cbid) = 0;
};

struct DecodeSettings
{
    uint32_t cuptiVersion = 0; // cuptiGetVersion()
    int64_t timestampOffsetNs = 0; // added to every CUPTI timestamp
};

struct DecodedRecord
{
    alignas(8) unsigned char bytes[160];
    uint32_t size = 0;

    template <class R> const R& as() const { return *reinterpret_cast<const R*>(bytes); }
};

enum class DecodeResult {
    Record, // `out` holds one spool record
    Ignored, // a kind we do not store
    NoTimestamps, // a GPU record with zero timestamps (CUPTI ran out of device buffer)
};

DecodeResult decodeActivity(
    const CUpti_Activity& record, const DecodeSettings& settings, DecodeEnvironment& env, DecodedRecord& out);

// CUPTI's enums onto the model's numbering (spool_format.h).
uint8_t mapMemoryKind(uint32_t cuptiMemoryKind);
uint8_t mapCopyKind(uint32_t cuptiCopyKind);
uint8_t mapSyncType(uint32_t cuptiSyncType);

// "cudaLaunchKernel_v7000" -> "cudaLaunchKernel": the names cuptiGetCallbackName returns carry
// the API version they appeared in.
std::string_view stripVersionSuffix(std::string_view callbackName);

} // namespace sightline::inject::cupti
