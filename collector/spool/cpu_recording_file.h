// The CPU recording file: what the launcher's perf_event recorder (collector/perf) writes into
// the spool folder, and the conversion (collector/convert/cpu) reads back. The kernel's own
// records are stored as they came out of each CPU's ring buffer, so the file costs no
// re-encoding while the target runs. Little-endian, in this order:
//
//   file header  "SLCPUREC", u32 version, u32 event count E, then
//                u64 sample_type, u64 sample_regs_user, u32 sample_stack_user, u32 reserved,
//                u64 sampling period (ns), then E x (u64 perf event id, u32 EventRole, u32 cpu)
//   chunks       u32 cpu, u32 bytes, then that many bytes of perf records (struct
//                perf_event_header and body, see perf_event_open(2)), in the order one CPU's ring
//                buffer delivered them
//   diagnostics  a chunk whose cpu is kDiagnosticChunk holds one sentence (not terminated)
//
// Every event shares one sample_type (with PERF_SAMPLE_IDENTIFIER first, so a sample names its
// event) and sample_id_all. Chunks are appended while the target runs; a file cut short keeps
// every complete chunk.
#pragma once

#include <cstdint>
#include <string_view>

namespace sightline::spool::cpu_recording {

constexpr std::string_view kMagic {"SLCPUREC", 8};
constexpr uint32_t kVersion = 1;
constexpr const char* kFileName = "cpu.rec";
constexpr uint32_t kDiagnosticChunk = 0xFFFFFFFF;
constexpr size_t kChunkHeaderBytes = 8;

enum class EventRole : uint32_t {
    CpuClock = 1, // timer samples of running threads
    ContextSwitch = 2, // a sample each time a thread leaves a CPU, with PERF_RECORD_SWITCH records
};

struct FileHeader
{
    char magic[8];
    uint32_t version;
    uint32_t eventCount;
    uint64_t sampleType;
    uint64_t sampleRegsUser;
    uint32_t sampleStackUser;
    uint32_t reserved;
    uint64_t samplingPeriodNs;
};
static_assert(sizeof(FileHeader) == 48);

struct EventEntry
{
    uint64_t id;
    uint32_t role; // EventRole
    uint32_t cpu;
};
static_assert(sizeof(EventEntry) == 16);

} // namespace sightline::spool::cpu_recording
