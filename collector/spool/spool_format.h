// The raw spool format: what libsightline-inject.so writes inside the target, one file per
// process (`<spool dir>/<pid>.spool`), and what the launcher reads back to build a report.
//
// Layout: a FileHeader, then a stream of records. Every record starts with a RecordHeader and
// is a multiple of 8 bytes long (`bytes` counts the whole record). Records of one thread are
// in order; records of different threads interleave in blocks. A file cut short (the target
// killed mid-write) ends in a partial record, which readers drop: everything before it is valid.
//
// Clocks: host-side records (NVTX, OS runtime, thread names, capture control) carry *ticks* of
// the header's TickSource (the TSC, or CLOCK_MONOTONIC nanoseconds). ClockSync records pair
// ticks with CLOCK_MONOTONIC; both are host-wide, so the launcher may pool the pairs of every
// file of a session. CUDA records carry CLOCK_MONOTONIC nanoseconds directly (CUPTI's own clock,
// its offset measured at start and at every periodic flush, cupti_clock.h).
//
// Versioning: a reader refuses another major version. Minor versions only add record types;
// a reader skips types it does not know. The fixed part of a record that carries text never
// grows (text follows it); a record without text may grow at its end (readers use the prefix).
//
// Enumerations stored here use the numeric values of the model's enums (model/core/enums.h)
// so the launcher converts by cast; the injection library maps CUPTI's values onto them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace sightline::spool {

inline constexpr char kFileMagic[8] = {'S', 'L', 'S', 'P', 'O', 'O', 'L', '\n'};
inline constexpr uint16_t kFormatMajor = 1;
inline constexpr uint16_t kFormatMinor = 0;
inline constexpr const char* kFileSuffix = ".spool";
// Text longer than this is cut (and the cut counted as a Loss of kind TextTruncated).
inline constexpr uint32_t kMaxTextBytes = 4096;

enum class TickSource : uint16_t { MonotonicNs = 0, Tsc = 1 };

struct FileHeader
{
    char magic[8];
    uint16_t formatMajor;
    uint16_t formatMinor;
    uint16_t headerBytes; // sizeof(FileHeader) of the writer; readers skip what they do not know
    TickSource tickSource;
    uint32_t pid;
    uint32_t ppid;
    uint64_t reserved[2];
};
static_assert(sizeof(FileHeader) == 40);

// The header a writer of this format version puts first in a new spool file.
inline FileHeader makeFileHeader(uint32_t pid, uint32_t ppid, TickSource ticks)
{
    FileHeader header {};
    std::memcpy(header.magic, kFileMagic, sizeof(header.magic));
    header.formatMajor = kFormatMajor;
    header.formatMinor = kFormatMinor;
    header.headerBytes = sizeof(header);
    header.tickSource = ticks;
    header.pid = pid;
    header.ppid = ppid;
    return header;
}

enum class RecordType : uint16_t {
    // process-level
    ClockSync = 1,
    String = 2, // an entry of the process's interned string table
    ProcessText = 3,
    ThreadName = 4,
    Loss = 5,
    Diagnostic = 6,
    CaptureControl = 7, // cudaProfilerStart / cudaProfilerStop
    // NVTX
    NvtxDomain = 16,
    NvtxCategory = 17,
    NvtxPush = 18,
    NvtxPop = 19,
    NvtxStart = 20,
    NvtxEnd = 21,
    NvtxMark = 22,
    NvtxPushPlain = 23, // the common case, compact: default domain, no attributes, inline text
    NvtxPopPlain = 24, // a pop in the default domain
    // OS runtime
    OsCall = 32,
    // CUDA (from CUPTI)
    CudaApi = 48,
    CudaKernel = 49,
    CudaMemcpy = 50,
    CudaMemset = 51,
    CudaSync = 52,
    CudaDevice = 53,
    CudaContext = 54,
    CudaStream = 55,
    CudaVersions = 56,
    CudaMemoryUsage = 57, // an allocation or release of GPU memory (--cuda-memory-usage)
};

// `tid` is the OS thread the record belongs to (for CUDA API records: the calling thread; for
// GPU records: 0; for ThreadName: the thread being named).
struct RecordHeader
{
    RecordType type;
    uint16_t bytes; // the whole record, header and text included, a multiple of 8
    uint32_t tid;
};
static_assert(sizeof(RecordHeader) == 8);

inline constexpr uint32_t kMaxRecordBytes = 0xFFF8;

constexpr uint32_t paddedRecordBytes(uint32_t fixedBytes, uint32_t textBytes)
{
    return (fixedBytes + textBytes + 7u) & ~7u;
}

// ---- process-level records ----

struct ClockSyncRecord
{
    RecordHeader header;
    uint64_t ticks;
    int64_t monotonicNs;
    int64_t realtimeNs;
};

struct StringRecord // text follows
{
    RecordHeader header;
    uint32_t id; // ids start at 1; 0 means "no string"
    uint32_t textBytes;
};

enum class ProcessTextKind : uint32_t {
    CommandLineArg = 1, // one per argument, in order
    Executable = 2,
    WorkingDirectory = 3,
    Hostname = 4,
    Environment = 5, // "NAME=VALUE" of a variable the report keeps
    ProcessName = 6, // the kernel's short name (comm)
};

struct ProcessTextRecord // text follows
{
    RecordHeader header;
    ProcessTextKind kind;
    uint32_t textBytes;
};

enum class ThreadNameSource : uint32_t { Os = 0, Nvtx = 1 };

struct ThreadNameRecord // text follows
{
    RecordHeader header;
    ThreadNameSource source;
    uint32_t textBytes;
};

enum class LossKind : uint32_t {
    CuptiDroppedRecords = 1, // cuptiActivityGetNumDroppedRecords
    BufferExhausted = 2, // a thread buffer could not grow: records dropped
    TextTruncated = 3, // a message longer than kMaxTextBytes was cut
    CuptiZeroTimestamps = 4, // GPU records without timestamps (device buffer overflow)
};

struct LossRecord
{
    RecordHeader header;
    LossKind kind;
    uint32_t reserved;
    uint64_t count;
};

enum class Severity : uint32_t { Info = 0, Warning = 1, Error = 2 }; // = sightline::Severity

struct DiagnosticRecord // text follows: one sentence
{
    RecordHeader header;
    Severity severity;
    uint32_t textBytes;
};

struct CaptureControlRecord
{
    RecordHeader header;
    uint64_t ticks;
    uint32_t start; // 1: cudaProfilerStart, 0: cudaProfilerStop
    uint32_t reserved;
};

// ---- NVTX ----

enum class NvtxMessageKind : uint8_t { None = 0, Inline = 1, Registered = 2 };

// The attributes shared by pushes, starts and marks. Inline text follows the record's fixed part.
struct NvtxFields
{
    uint32_t domain; // 0: the default domain
    uint32_t category;
    uint32_t color; // ARGB
    uint8_t hasColor;
    uint8_t payloadType; // = sightline::PayloadType
    NvtxMessageKind messageKind;
    uint8_t reserved;
    uint64_t payload; // raw bits
    uint32_t registeredId; // a String record id when messageKind is Registered
    uint32_t textBytes; // inline text length when messageKind is Inline
};
static_assert(sizeof(NvtxFields) == 32);

struct NvtxDomainRecord // text follows: the domain's name
{
    RecordHeader header;
    uint32_t domain;
    uint32_t textBytes;
};

struct NvtxCategoryRecord // text follows: the category's name
{
    RecordHeader header;
    uint32_t domain;
    uint32_t category;
    uint32_t textBytes;
    uint32_t reserved;
};

struct NvtxPushRecord // text follows
{
    RecordHeader header;
    uint64_t ticks;
    NvtxFields fields;
};

struct NvtxPopRecord
{
    RecordHeader header;
    uint64_t ticks;
    uint32_t domain;
    uint32_t reserved;
};

struct NvtxStartRecord // text follows
{
    RecordHeader header;
    uint64_t ticks;
    uint64_t rangeId; // unique within the process; the End may come from any thread
    NvtxFields fields;
};

struct NvtxEndRecord
{
    RecordHeader header;
    uint64_t ticks;
    uint64_t rangeId;
};

struct NvtxMarkRecord // text follows
{
    RecordHeader header;
    uint64_t ticks;
    NvtxFields fields;
};

// nvtxRangePushA/nvtxRangePop, the calls most programs make (torch.cuda.nvtx among them), in
// 16 bytes plus the message: it follows the record, padded with zero bytes to the record's
// size (a message has no zero byte, so its length is where the padding starts).
struct NvtxPushPlainRecord // text follows, zero-padded
{
    RecordHeader header;
    uint64_t ticks;
};

struct NvtxPopPlainRecord
{
    RecordHeader header;
    uint64_t ticks;
};

// ---- OS runtime ----

struct OsCallRecord
{
    RecordHeader header;
    uint64_t startTicks;
    uint64_t endTicks;
    int64_t result;
    uint16_t function; // an OsFunction (os_functions.h)
    uint16_t reserved[3];
};

// ---- CUDA ----

enum class ApiClass : uint8_t { Runtime = 0, Driver = 1 }; // = sightline::ApiClass

struct CudaApiRecord
{
    RecordHeader header;
    int64_t startNs;
    int64_t endNs;
    uint32_t correlation;
    uint32_t nameId; // String id of the function name ("cudaLaunchKernel")
    int32_t result;
    ApiClass apiClass;
    uint8_t reserved[3];
};

struct CudaKernelRecord
{
    RecordHeader header;
    int64_t startNs;
    int64_t endNs;
    uint32_t device, context, stream, correlation;
    uint32_t grid[3];
    uint32_t block[3];
    uint32_t registersPerThread;
    uint32_t staticSharedMemory;
    uint32_t dynamicSharedMemory;
    uint32_t localMemoryPerThread;
    uint64_t localMemoryTotal;
    uint32_t nameId; // String id of the mangled name
    uint8_t launchType; // = sightline::LaunchType
    uint8_t reserved[3];
    uint32_t graphId;
    uint32_t reserved2;
    uint64_t graphNodeId;
};

struct CudaMemcpyRecord
{
    RecordHeader header;
    int64_t startNs;
    int64_t endNs;
    uint64_t bytes;
    uint32_t device, context, stream, correlation;
    uint32_t srcDevice, dstDevice; // peer copies; else both equal device
    uint8_t copyKind; // = sightline::CopyKind
    uint8_t srcKind, dstKind; // = sightline::MemoryKind
    uint8_t reserved;
    uint32_t graphId;
};

struct CudaMemsetRecord
{
    RecordHeader header;
    int64_t startNs;
    int64_t endNs;
    uint64_t bytes;
    uint32_t device, context, stream, correlation;
    uint32_t value;
    uint8_t memoryKind; // = sightline::MemoryKind
    uint8_t reserved[3];
    uint32_t graphId;
    uint32_t reserved2;
};

struct CudaMemoryUsageRecord
{
    RecordHeader header;
    int64_t timestampNs;
    uint64_t address;
    uint64_t bytes;
    uint32_t device, context, stream, correlation;
    uint8_t release; // 1: memory released, 0: allocated
    uint8_t memoryKind; // = sightline::MemoryKind
    uint8_t reserved[6];
};

struct CudaSyncRecord
{
    RecordHeader header;
    int64_t startNs;
    int64_t endNs;
    uint32_t context, stream, correlation, eventId;
    uint8_t type; // = sightline::SyncType
    uint8_t reserved[7];
};

struct CudaDeviceRecord
{
    RecordHeader header;
    uint32_t device;
    uint32_t computeMajor, computeMinor;
    uint32_t smCount;
    uint64_t memoryBytes;
    uint32_t coreClockKHz;
    uint32_t nameId;
    uint8_t uuid[16];
};

struct CudaContextRecord
{
    RecordHeader header;
    uint32_t context;
    uint32_t device;
    uint32_t nullStream;
    uint32_t reserved;
};

struct CudaStreamRecord
{
    RecordHeader header;
    uint32_t context;
    uint32_t stream;
    int32_t priority;
    uint32_t isDefault;
};

struct CudaVersionsRecord
{
    RecordHeader header;
    uint32_t cuptiApiVersion; // cuptiGetVersion
    uint32_t driverVersion; // cuDriverGetVersion, e.g. 13000; 0 when unknown
};

// Every record struct is a whole number of 8-byte words.
static_assert(sizeof(ClockSyncRecord) % 8 == 0 && sizeof(StringRecord) % 8 == 0);
static_assert(sizeof(NvtxPushRecord) % 8 == 0 && sizeof(NvtxStartRecord) % 8 == 0);
static_assert(sizeof(OsCallRecord) % 8 == 0 && sizeof(CudaKernelRecord) % 8 == 0);
static_assert(sizeof(CudaMemcpyRecord) % 8 == 0 && sizeof(CudaMemsetRecord) % 8 == 0);
static_assert(sizeof(CudaMemoryUsageRecord) % 8 == 0);
static_assert(sizeof(CudaSyncRecord) % 8 == 0 && sizeof(CudaDeviceRecord) % 8 == 0);
static_assert(sizeof(CudaApiRecord) % 8 == 0 && sizeof(CudaVersionsRecord) % 8 == 0);

// Environment variables through which the launcher configures the injection library.
// (A user may also set, for the injection library, SIGHTLINE_CLOCK=monotonic|tsc (clock.cpp)
// SIGHTLINE_CUPTI_CLOCK=callback (cupti_clock.h) and SIGHTLINE_CUPTI_ZEROING=cupti
// (activity_buffers.h); for the launcher,
// SIGHTLINE_INJECT_LIBRARY, SIGHTLINE_PROGRESS_INTERVAL, SIGHTLINE_KEEP_SPOOL and
// SIGHTLINE_TIMINGS.)
inline constexpr const char* kEnvSpoolDir = "SIGHTLINE_SPOOL_DIR"; // required: off when unset
inline constexpr const char* kEnvTrace = "SIGHTLINE_TRACE"; // "cuda,nvtx,osrt"
inline constexpr const char* kEnvOsrtThreshold = "SIGHTLINE_OSRT_THRESHOLD_NS";
inline constexpr const char* kEnvKeepEnv = "SIGHTLINE_KEEP_ENV"; // comma-separated names
inline constexpr const char* kEnvCuptiPath = "SIGHTLINE_CUPTI_PATH"; // the toolkit's libcupti
inline constexpr const char* kEnvCudaMemoryUsage = "SIGHTLINE_CUDA_MEMORY_USAGE"; // "1": record allocations

} // namespace sightline::spool
