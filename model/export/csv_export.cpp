// exportCsv: one RFC 4180 CSV file per event kind (cuda_api, kernels, memcpy, memset, sync, nvtx,
// osrt), each with a header row. Column names follow the nsys SQLite columns; times are integer
// nanoseconds; enumerations are written as their labels ("Host-to-Device", "Pageable").
// All files are written to temporaries first and renamed only once every one is complete.
#include "model/export/event_walk.h"
#include "model/export/exporters.h"
#include "model/export/output_file.h"
#include "model/text/csv_writer.h"
#include "model/text/text_format.h"
#include "model/trace/event_access.h"

#include <array>
#include <filesystem>
#include <memory>
#include <optional>

namespace sightline {
namespace {

enum CsvFile {
    kApiFile,
    kKernelFile,
    kMemcpyFile,
    kMemsetFile,
    kSyncFile,
    kNvtxFile,
    kOsrtFile,
    kCsvFileCount
};

constexpr std::array<std::string_view, kCsvFileCount> kFileNames {
    "cuda_api.csv", "kernels.csv", "memcpy.csv", "memset.csv", "sync.csv", "nvtx.csv", "osrt.csv"};

constexpr std::array<std::string_view, kCsvFileCount> kHeaders {
    "start,end,duration,name,apiClass,returnValue,correlationId,pid,tid",
    "start,end,duration,name,shortName,mangledName,pid,deviceId,contextId,streamId,correlationId,"
    "gridX,gridY,gridZ,blockX,blockY,blockZ,registersPerThread,staticSharedMemory,dynamicSharedMemory,"
    "localMemoryPerThread,localMemoryTotal,launchType,graphId,graphNodeId",
    "start,end,duration,name,bytes,copyKind,srcKind,dstKind,srcDeviceId,dstDeviceId,pid,deviceId,contextId,"
    "streamId,correlationId",
    "start,end,duration,name,bytes,value,memKind,pid,deviceId,contextId,streamId,correlationId",
    "start,end,duration,name,syncType,eventId,pid,deviceId,contextId,streamId,correlationId",
    "start,end,duration,name,style,domain,category,color,payloadType,payload,pid,tid,endTid",
    "start,end,duration,name,returnValue,nestingLevel,pid,tid"};

bool isFolderDestination(const std::string& destination)
{
    std::error_code ec;
    return destination.ends_with('/') || std::filesystem::is_directory(destination, ec);
}

class CsvWriter
{
public:
    CsvWriter(const Trace& trace, std::array<std::unique_ptr<TextOutput>, kCsvFileCount>& files)
        : m_trace(trace)
        , m_files(files)
    { }

    void writeAll()
    {
        for (int f = 0; f < kCsvFileCount; ++f)
            m_files[f]->write(std::string(kHeaders[f]) + "\n");
        forEachEvent(m_trace, TrackKind::CudaApi, [&](const Track& track, EventRef ref, uint32_t) {
            const ApiCall e = apiCallAt(m_trace, ref);
            row(kApiFile)
                .timed(e.start, e.end, m_trace.strings[e.name])
                .text(label(e.result.apiClass))
                .num(e.result.returnCode)
                .num(e.correlation.value)
                .num(track.key.pid.value)
                .num(track.key.tid.value)
                .end();
        });
        forEachEvent(m_trace, TrackKind::Kernels, [&](const Track& track, EventRef ref, uint32_t) {
            const KernelEvent e = kernelAt(m_trace, ref);
            const KernelLaunch& l = e.launch;
            CsvRow& r = row(kKernelFile).timed(e.start, e.end, m_trace.strings[e.name]);
            r.text(m_trace.strings[l.shortName]).text(m_trace.strings[l.mangledName]);
            stream(r, track.key, e.correlation);
            for (uint32_t v : l.grid)
                r.num(v);
            for (uint32_t v : l.block)
                r.num(v);
            r.num(l.registersPerThread)
                .num(l.staticSharedMemory)
                .num(l.dynamicSharedMemory)
                .num(l.localMemoryPerThread)
                .num(int64_t(l.localMemoryTotal))
                .text(label(l.launchType))
                .num(l.graphId)
                .num(int64_t(l.graphNodeId))
                .end();
        });
        forEachEvent(m_trace, TrackKind::Memory, [&](const Track& track, EventRef ref, uint32_t) {
            const MemoryEvent e = memoryAt(m_trace, ref);
            const MemoryOp& op = e.op;
            const std::string name = memoryOpName(op);
            if (op.kind == MemoryOpKind::Memset) {
                CsvRow& r = row(kMemsetFile).timed(e.start, e.end, name);
                r.num(int64_t(e.bytes)).num(op.memsetValue).text(label(op.srcKind));
                stream(r, track.key, e.correlation).end();
                return;
            }
            CsvRow& r = row(kMemcpyFile).timed(e.start, e.end, name);
            r.num(int64_t(e.bytes))
                .text(label(op.copyKind))
                .text(label(op.srcKind))
                .text(label(op.dstKind))
                .num(op.srcDevice.value)
                .num(op.dstDevice.value);
            stream(r, track.key, e.correlation).end();
        });
        forEachEvent(m_trace, TrackKind::Synchronization, [&](const Track& track, EventRef ref, uint32_t) {
            const SyncEvent e = syncAt(m_trace, ref);
            CsvRow& r = row(kSyncFile).timed(e.start, e.end, syncOpName(e.op));
            r.text(label(e.op.type)).num(e.op.eventId);
            stream(r, track.key, e.correlation).end();
        });
        forEachEvent(m_trace, TrackKind::Nvtx, [&](const Track& track, EventRef ref, uint32_t) {
            const NvtxEvent e = nvtxAt(m_trace, ref);
            const NvtxAttributes& a = e.attributes;
            std::string color, payload;
            if (a.hasColor) appendArgbHex(color, a.color);
            appendPayload(payload, a.payloadType, a.payload);
            row(kNvtxFile)
                .timed(e.start, e.end, m_trace.strings[e.name])
                .text(label(a.style))
                .text(m_trace.domainName(a.domain))
                .num(a.category)
                .text(color)
                .text(payloadTypeName(a.payloadType))
                .text(payload)
                .num(track.key.pid.value)
                .num(track.key.tid.value)
                .num(a.endThread.value != 0 ? a.endThread.value : track.key.tid.value)
                .end();
        });
        forEachEvent(m_trace, TrackKind::OsRuntime, [&](const Track& track, EventRef ref, uint32_t lane) {
            const OsCall e = osCallAt(m_trace, ref);
            CsvRow& r = row(kOsrtFile).timed(e.start, e.end, m_trace.strings[e.name]).num(e.returnValue);
            (track.nested ? r.num(lane) : r.blank()).num(track.key.pid.value).num(track.key.tid.value).end();
        });
    }

private:
    // A fresh row of file `f`; the previous row is complete by then, so the buffer may flush.
    CsvRow& row(CsvFile f)
    {
        m_files[f]->flushIfFull();
        m_row.emplace(m_files[f]->buffer());
        return *m_row;
    }

    CsvRow& stream(CsvRow& r, const TrackKey& key, CorrelationId correlation)
    {
        return r.num(key.pid.value)
            .num(key.device.value)
            .num(key.context.value)
            .num(key.stream.value)
            .num(correlation.value);
    }

    const Trace& m_trace;
    std::array<std::unique_ptr<TextOutput>, kCsvFileCount>& m_files;
    std::optional<CsvRow> m_row;
};

} // namespace

std::vector<std::string> csvExportPaths(const std::string& destination)
{
    const bool folder = isFolderDestination(destination);
    std::vector<std::string> paths;
    for (std::string_view name : kFileNames) {
        if (folder)
            paths.push_back((std::filesystem::path(destination) / name).string());
        else
            paths.push_back(destination + "_" + std::string(name));
    }
    return paths;
}

Status exportCsv(const Trace& trace, const std::string& destination, const ExportOptions& options)
{
    if (destination.ends_with('/')) {
        std::error_code ec;
        std::filesystem::create_directory(destination, ec); // a missing parent is reported below
    }
    const std::vector<std::string> paths = csvExportPaths(destination);
    // Check every target before creating anything, so a refusal leaves no file behind.
    std::error_code ec;
    if (!options.overwrite)
        for (const std::string& path : paths)
            if (std::filesystem::exists(path, ec))
                return Status::failure("Cannot write '" + path
                    + "': the file already exists; choose another name or allow overwriting (--force).");

    std::array<std::unique_ptr<TextOutput>, kCsvFileCount> files;
    for (int f = 0; f < kCsvFileCount; ++f) {
        files[f] = std::make_unique<TextOutput>();
        if (Status opened = files[f]->open(paths[f], options.overwrite); !opened) return opened;
    }
    try {
        CsvWriter(trace, files).writeAll();
    } catch (const std::bad_alloc&) {
        return Status::failure("Cannot write '" + paths[0]
            + "': out of memory while exporting; close other programs and try again.");
    }
    for (auto& file : files)
        if (Status finished = file->finish(); !finished) return finished;
    return {};
}

} // namespace sightline
