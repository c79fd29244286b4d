// What decoding one spool file needs besides its records: the session clock, the file's own
// string and NVTX-domain tables (ids are per file: an exec'ed image starts new ones), and the
// TraceBuilder that owns the report's interned strings. Shared by the host-side decoder
// (process_capture.cpp) and the CUDA one (cuda_records.cpp).
#pragma once

#include "process_capture.h"

#include <string_view>
#include <unordered_map>

namespace sightline::collector {

struct SpoolContext
{
    const SpoolFile& file;
    const ClockMap& clock;
    const DecodeOptions& options;
    TraceBuilder& builder;
    std::unordered_map<uint32_t, std::string_view> strings; // spool string id -> text in the file
    std::unordered_map<uint32_t, StringId> interned; // spool string id -> report string
    std::unordered_map<uint32_t, DomainId> domains; // spool domain id -> report domain
    struct KernelNames
    {
        StringId demangled, mangled, shortName;
    };
    std::unordered_map<uint32_t, KernelNames> kernelNames; // spool string id -> demangled once

    mutable size_t clockHint = 0;

    Timestamp hostTime(uint64_t ticks) const
    {
        return clock.toMonotonic(file.header.tickSource, ticks, clockHint) - options.originMonotonicNs;
    }
    Timestamp cudaTime(int64_t monotonicNs) const { return monotonicNs - options.originMonotonicNs; }

    std::string_view stringText(uint32_t id) const
    {
        auto found = strings.find(id);
        return found == strings.end() ? std::string_view() : found->second;
    }
    StringId string(uint32_t id)
    {
        auto found = interned.find(id);
        if (found != interned.end()) return found->second;
        const StringId sid = builder.intern(stringText(id));
        interned.emplace(id, sid);
        return sid;
    }
    DomainId domain(uint32_t spoolDomain) const
    {
        auto found = domains.find(spoolDomain);
        return found == domains.end() ? DomainId() : found->second;
    }
};

// Converts record `index` of a CUDA type (CudaApi ... CudaVersions) into `capture`.
void decodeCudaRecord(ProcessCapture& capture, SpoolContext& context, const spool::RecordHeader& record);

} // namespace sightline::collector
