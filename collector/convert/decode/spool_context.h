// What decoding a chunk of a spool file needs besides its records: the session clock, the
// file's string and NVTX-domain tables (ids are per file: an exec'ed image starts new ones), and
// the chunk's own string table (local_strings.h). Shared by the host-side decoder
// (chunk_decoder.cpp) and the CUDA one (cuda_records.cpp). While a chunk decodes, the StringId
// fields of its events hold ids of its LocalStrings; the process decoder turns them into report
// ids once every chunk is done.
#pragma once

#include "collector/convert/decode/clock_map.h"
#include "collector/convert/decode/decoded_process.h"
#include "collector/convert/decode/local_strings.h"
#include "collector/convert/decode/spool_reader.h"

#include <string_view>
#include <unordered_map>

namespace sightline::collector {

struct DecodedChunk;

// A file's String and NvtxDomain records, read before its chunks decode.
struct FileTables
{
    std::unordered_map<uint32_t, std::string_view> strings; // spool string id -> text in the file
    std::unordered_map<uint32_t, DomainId> domains; // spool domain id -> report domain

    std::string_view string(uint32_t id) const
    {
        auto found = strings.find(id);
        return found == strings.end() ? std::string_view() : found->second;
    }
    DomainId domain(uint32_t spoolDomain) const
    {
        auto found = domains.find(spoolDomain);
        return found == domains.end() ? DomainId() : found->second;
    }
};

struct SpoolContext
{
    const SpoolFile& file;
    const FileTables& tables;
    const ClockMap& clock;
    const DecodeOptions& options;
    LocalStrings& strings;
    std::unordered_map<uint32_t, uint32_t> interned {}; // spool string id -> local id
    struct KernelNames
    {
        uint32_t demangled, mangled, shortName; // local ids
    };
    std::unordered_map<uint32_t, KernelNames> kernelNames {}; // spool string id -> demangled once
    size_t clockHint = 0;

    Timestamp hostTime(uint64_t ticks)
    {
        return clock.toMonotonic(file.header.tickSource, ticks, clockHint) - options.originMonotonicNs;
    }
    Timestamp cudaTime(int64_t monotonicNs) const { return monotonicNs - options.originMonotonicNs; }

    // The local id of a spool String record's text (of the empty string for an unknown id).
    StringId string(uint32_t id)
    {
        auto found = interned.find(id);
        if (found != interned.end()) return StringId(found->second);
        const uint32_t local = strings.intern(tables.string(id));
        interned.emplace(id, local);
        return StringId(local);
    }
};

// Converts a CUDA event record (CudaApi, CudaKernel, CudaMemcpy, CudaMemset, CudaSync) into `out`.
void decodeCudaEvent(SpoolContext& context, DecodedChunk& out, const spool::RecordHeader& record);
// Converts a CUDA description record (CudaDevice, CudaContext, CudaStream, CudaVersions).
void decodeCudaEntity(ProcessCapture& capture, const FileTables& tables, const spool::RecordHeader& record);

} // namespace sightline::collector
