// Internal to the Nsight Systems SQLite importer: the state shared by its parts. The importer
// probes the schema first (tables and columns differ between export versions; a missing table
// just means no such events, a missing required column is an unknown layout and an error),
// then reads each table once with one SELECT of the columns it knows, in file order (call
// chains by id; the backtraces' callchainIds come from a second look at the API tables),
// straight into a TraceBuilder. Strings are mapped from the file's StringIds once; threads and
// processes are decoded from globalTid / globalPid.
//   nsys_import.cpp   driver, layout checks, StringIds, progress
//   nsys_metadata.cpp report metadata, session start, diagnostics
//   nsys_entities.cpp processes, threads, GPUs, contexts, streams
//   nsys_events.cpp   CUDA API, kernels, memcpy, memset, synchronization, OS runtime
//   nsys_nvtx.cpp     NVTX ranges, marks, domains and thread names
//   nsys_gpu_metrics.cpp  GPU metrics (counter series), GPU memory usage (records and series)
//   nsys_cpu.cpp      CPU samples, their call stacks, scheduling, backtraces of calls
#pragma once

#include "model/construct/trace_builder.h"
#include "model/format/report_io.h"
#include "model/import/importers.h"
#include "model/import/sqlite_source.h"
#include "model/import/track_cache.h"

#include <algorithm>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <stdexcept>
#include <unordered_map>

namespace sightline::nsys_import {

// A failure worth one sentence to the user (already complete, naming the file).
struct ImportError : std::runtime_error
{
    using std::runtime_error::runtime_error;
};
struct Cancelled
{
};

struct Column
{
    const char* name;
    bool required = false;
};

// An integer column's value as an enum of `count` values, or `fallback` outside them.
template <class E> E enumOr(int64_t value, int count, E fallback)
{
    return value >= 0 && value < count ? E(value) : fallback;
}
// An integer column's value clamped to 32 bits (ids, correlation ids).
inline uint32_t u32(int64_t value)
{
    return uint32_t(std::clamp<int64_t>(value, 0, int64_t(UINT32_MAX)));
}

// A time column's value when it is whole nanoseconds below kImportedTimeLimit; nullopt for NULL,
// text, a fraction, NaN, an infinity, a negative or a 2^63-scale number.
std::optional<Timestamp> timeIn(const SqliteRows& rows, int column);

class Importer
{
public:
    Importer(std::string path, const SqliteSource& db, const ReadOptions& options, uint64_t fileSize);
    Trace run();

private:
    // nsys_import.cpp
    void checkLayout();
    void readStrings();
    // `clause` follows the FROM verbatim (" WHERE ...", " ORDER BY ...").
    SqliteRows select(const char* table, std::span<const Column> columns, std::string_view clause = {});
    StringId stringOf(int64_t fileId);
    StringId optionalStringOf(const SqliteRows& rows, int column); // NULL -> the empty string
    std::string_view textOf(int64_t fileId); // a StringIds value without interning it ("" when absent)
    void tick();
    // Counter samples may end past the last time an event may have; the trace end, where open
    // ranges close, stays below it.
    void noteEnd(Timestamp end) { m_traceEnd = std::max(m_traceEnd, std::min(end, kImportedTimeLimit - 1)); }
    // The time, or the start and end, of a row of `table`. A row whose time is not one (timeIn)
    // gives nullopt and is counted as skipped; an end before the start is counted and becomes
    // the start. An instant passes its start column twice.
    std::optional<Timestamp> rowTime(const SqliteRows& rows, int column, const char* table);
    std::optional<TimeRange> rowInterval(
        const SqliteRows& rows, int startColumn, int endColumn, const char* table);
    void addImportDiagnostics();

    // nsys_metadata.cpp
    void readExportMetadata();
    void readCaptureMetadata();
    void readSystemEnvironment();
    void readSessionTimes();
    void readDiagnostics();

    // nsys_entities.cpp
    void readProcesses();
    void readThreadNames();
    void readGpus();
    void readContextsAndStreams();
    void addProcessesAndThreads();

    // nsys_events.cpp
    void readApiCalls();
    void readKernels();
    void readMemcpys();
    void readMemsets();
    void readSynchronization();
    void readOsRuntime();
    StringId apiNameOf(int64_t fileId);

    // nsys_gpu_metrics.cpp
    void readGpuMetrics();
    void readMemoryUsage();

    // nsys_cpu.cpp
    void readCpuProfile();
    void readSamples();
    void readScheduling();
    void readCudaBacktraces();
    void readOsRuntimeBacktraces();
    // Calls visit(id, stack) once per id of a callchain table, with the stack of its rows
    // (kNoCallStack when their stackDepths are not 0, 1, 2, ...).
    void forEachCallchain(const char* table, const std::function<void(int64_t, uint32_t)>& visit);
    struct StackRequest; // a call waiting for the stack of a callchain id
    void attachEventStacks(const char* table, std::vector<StackRequest>& requests);
    // 1 when the table's ids are the calls' callchainIds plus 1 (nsys 2022), else 0.
    int64_t callchainIdOffset(const char* table, const std::vector<StackRequest>& requests);
    StringId moduleNameOf(int64_t fileId); // the file name of a module path
    void addCpuDiagnostics();

    // nsys_nvtx.cpp
    void readNvtx();
    DomainId domainOf(uint32_t pid, int64_t fileDomain);
    void nameDomain(uint32_t pid, int64_t fileDomain, std::string name);
    DomainId newDomainId(int64_t preferred) const;

    std::string m_path;
    const SqliteSource& m_db;
    const ReadOptions& m_options;
    uint64_t m_fileSize = 0;
    TraceBuilder m_builder;
    TrackCache m_tracks {m_builder};

    // StringIds, kept as the file has them and interned into the trace only when an event uses
    // one (exports also hold the symbols of every backtrace, which a trace does not need).
    struct FileString
    {
        uint64_t offset = 0; // into m_fileText
        uint32_t length = 0;
        uint32_t interned = kNoString;
        bool present = false;
    };
    FileString* fileString(int64_t fileId);
    std::string m_fileText;
    std::vector<FileString> m_fileStrings; // by id, for dense ids (all real exports)
    std::unordered_map<int64_t, FileString> m_sparseFileStrings; // the others
    std::vector<uint32_t> m_apiNames; // file id -> API name without its "_v7000" suffix
    static constexpr uint32_t kNoString = UINT32_MAX;

    bool m_fromSightline = false; // written by Sightline's own exporter
    std::string m_schemaVersion;
    uint64_t m_rowsDone = 0, m_rowsTotal = 1;
    Timestamp m_traceEnd = 0;
    Timestamp m_analysisEnd = 0;

    std::map<std::pair<uint32_t, uint32_t>, std::string> m_threadNames; // (pid, tid)
    std::map<uint32_t, Process> m_processes;
    std::map<std::pair<uint32_t, uint32_t>, uint32_t> m_contextDevices; // (pid, context) -> device
    struct DomainKey
    {
        uint32_t pid;
        int64_t fileDomain;
        friend auto operator<=>(const DomainKey&, const DomainKey&) = default;
    };
    std::map<DomainKey, DomainId> m_domains;
    std::map<std::string, DomainId, std::less<>> m_domainsByName;
    std::map<uint32_t, bool> m_domainIdsNamed; // our domain ids in use -> whether named yet
    std::map<int64_t, size_t> m_skippedApiClasses;
    std::map<int64_t, size_t> m_skippedNvtxTypes;
    size_t m_missingStrings = 0;
    std::map<std::string, size_t> m_untimedRows; // per table: rows skipped for a time that is none
    std::map<std::string, size_t> m_reversedRows; // per table: rows that end before they start
    size_t m_openRanges = 0;

    // The CPU side (nsys_cpu.cpp).
    Timestamp m_capturedSamplingPeriod = 0; // from META_DATA_CAPTURE; 0 when it says none
    std::set<std::pair<uint32_t, uint32_t>> m_cpuThreads; // (pid, tid) of samples and scheduling
    std::unordered_map<int64_t, StringId> m_moduleNames; // module StringId -> its file name
    struct CpuRowCounts
    {
        std::map<std::string, size_t> skipped; // per table: rows without an id, a time or a thread
        size_t orphanStacks = 0; // SAMPLING_CALLCHAINS ids of no sample
        size_t damagedStacks = 0; // stackDepths with gaps or repeats
        size_t stateless = 0; // SCHED_EVENTS rows that begin no state
        size_t stacklessCalls = 0; // callchainIds whose stack or call is missing
    } m_cpuRows;
};

} // namespace sightline::nsys_import
