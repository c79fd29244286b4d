// exportChromeTrace: a Chrome trace JSON file ({"traceEvents": [...]}) that Perfetto UI and
// chrome://tracing open. Streamed to disk one event per line through a bounded buffer.
//  - "M" metadata events name processes and threads (see chrome_trace_layout.h for the rows);
//  - nested events (CUDA API, push/pop NVTX, OS runtime, GPU operations) are complete "X"
//    events, categorised like PyTorch's Kineto traces: cuda_runtime, cuda_driver, kernel,
//    gpu_memcpy, gpu_memset, cuda_sync, nvtx, os_runtime;
//  - NVTX start/end ranges, which overlap freely, are async "b"/"e" pairs; marks are "i";
//  - each GPU operation is linked to its launching API call by a flow ("s" then "f", cat "ac2g");
//  - each flow link of the trace (model/core/flows.h) is a flow of its own, cat "flow": an "s" at
//    the source's start and an "f" with "bp":"e" at the destination's start, each on its row,
//    so that the importer binds them back to the same two events;
//  - GPU metrics are counter ("C") events on their GPU's process, one per sample.
// ts and dur are microseconds written as decimals that keep every nanosecond ("1234.567").
#include "model/export/chrome_trace_layout.h"
#include "model/export/event_walk.h"
#include "model/export/exporters.h"
#include "model/export/output_file.h"
#include "model/text/json_string.h"
#include "model/text/text_format.h"
#include "model/trace/event_access.h"

#include <cmath>
#include <optional>

namespace sightline {
namespace {

class ChromeTraceWriter
{
public:
    ChromeTraceWriter(const Trace& trace, TextOutput& output)
        : m_trace(trace)
        , m_layout(trace)
        , m_output(output)
        , m_out(output.buffer())
    { }

    void write(const ExportOptions& options)
    {
        m_out += "{\"traceEvents\":[";
        writeMetadataEvents();
        writeApiCalls();
        writeKernels();
        writeMemoryOperations();
        writeSynchronization();
        writeNvtx();
        writeOsRuntimeCalls();
        writeFlows();
        writeFlowLinks();
        writeCounters();
        m_out += "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":";
        writeOtherData(options);
        m_out += "}\n";
    }

private:
    // Counter series: one counter ("C") event per known sample, on its process, or on the GPU's
    // pseudo-process for GPU metrics and memory.
    void writeCounters()
    {
        for (const CounterSeries& series : m_trace.counterSeries) {
            const CounterTimeline& timeline = m_trace.timelineOf(series);
            const std::string name
                = series.unit.empty() ? series.name : series.name + " [" + series.unit + "]";
            const int64_t pid = ownedByProcess(series.source) ? int64_t(series.pid.value)
                                                              : ChromeTraceLayout::gpuPid(series.device);
            for (size_t i = 0; i < timeline.size(); ++i) {
                if (std::isnan(series.values[i])) continue;
                JsonObject e = event('C');
                e.str("name", name).num("pid", pid).micros("ts", timeline.starts[i]);
                e.object("args").real("value", series.values[i]).close();
                e.close();
            }
        }
    }

    // Starts the next element of traceEvents, one per line.
    JsonObject event(char phase)
    {
        m_output.flushIfFull();
        m_out += m_firstEvent ? "\n" : ",\n";
        m_firstEvent = false;
        JsonObject e(m_out);
        e.str("ph", std::string_view(&phase, 1));
        return e;
    }

    JsonObject placed(
        char phase, std::string_view category, std::string_view name, ChromeRow row, Timestamp ts)
    {
        JsonObject e = event(phase);
        e.str("cat", category).str("name", name).num("pid", row.pid).num("tid", row.tid).micros("ts", ts);
        return e;
    }

    JsonObject complete(std::string_view category, std::string_view name, const Track& track, EventRef ref)
    {
        JsonObject e = placed('X', category, name, m_layout.rowOf(ref.track), track.events.start[ref.index]);
        e.micros("dur", track.events.end[ref.index] - track.events.start[ref.index]);
        return e;
    }

    void writeMetadataEvents()
    {
        for (const auto& p : m_layout.processes()) {
            if (!p.name.empty()) metadata(p.pid, std::nullopt, "process_name", "name", p.name);
            if (!p.labels.empty()) metadata(p.pid, std::nullopt, "process_labels", "labels", p.labels);
            metadataNumber(p.pid, std::nullopt, "process_sort_index", p.sortIndex);
        }
        for (const auto& t : m_layout.threads()) {
            metadata(t.pid, t.tid, "thread_name", "name", t.name);
            metadataNumber(t.pid, t.tid, "thread_sort_index", t.sortIndex);
        }
    }

    void metadata(int64_t pid, std::optional<int64_t> tid, std::string_view kind, std::string_view key,
        std::string_view value)
    {
        JsonObject e = event('M');
        e.str("name", kind).num("pid", pid);
        if (tid) e.num("tid", *tid);
        e.object("args").str(key, value).close();
        e.close();
    }

    void metadataNumber(int64_t pid, std::optional<int64_t> tid, std::string_view kind, int64_t value)
    {
        JsonObject e = event('M');
        e.str("name", kind).num("pid", pid);
        if (tid) e.num("tid", *tid);
        e.object("args").num("sort_index", value).close();
        e.close();
    }

    // The "cat" of an event of `kind`: the variant for driver calls and memsets.
    static const char* category(TrackKind kind, bool variant = false)
    {
        return variant ? eventKind(kind).chromeCategoryVariant : eventKind(kind).chromeCategory;
    }

    std::string_view nameOf(const Track& track, uint32_t index) const
    {
        return m_trace.strings[track.events.name[index]];
    }

    void writeApiCalls()
    {
        forEachEvent(m_trace, TrackKind::CudaApi, [&](const Track& track, EventRef ref, uint32_t) {
            const ApiCall e = apiCallAt(m_trace, ref);
            const bool driver = e.result.apiClass == ApiClass::Driver;
            JsonObject x
                = complete(category(TrackKind::CudaApi, driver), m_trace.strings[e.name], track, ref);
            x.object("args")
                .num("correlation", e.correlation.value)
                .num("return code", e.result.returnCode)
                .close();
            x.close();
        });
    }

    void addStreamArgs(JsonObject& args, const TrackKey& key, CorrelationId correlation)
    {
        args.num("device", key.device.value)
            .num("context", key.context.value)
            .num("stream", key.stream.value)
            .num("correlation", correlation.value);
    }

    void addNameUnlessSame(JsonObject& args, std::string_view key, StringId value, StringId name)
    {
        if (value.value != 0 && m_trace.strings[value] != m_trace.strings[name])
            args.str(key, m_trace.strings[value]);
    }

    void writeKernels()
    {
        forEachEvent(m_trace, TrackKind::Kernels, [&](const Track& track, EventRef ref, uint32_t) {
            const KernelEvent e = kernelAt(m_trace, ref);
            const KernelLaunch& l = e.launch;
            JsonObject x = complete(category(TrackKind::Kernels), m_trace.strings[e.name], track, ref);
            JsonObject args = x.object("args");
            addStreamArgs(args, track.key, e.correlation);
            args.triple("grid", l.grid)
                .triple("block", l.block)
                .num("registers per thread", l.registersPerThread)
                .num("shared memory", int64_t(l.staticSharedMemory) + l.dynamicSharedMemory)
                .num("static shared memory", l.staticSharedMemory)
                .num("dynamic shared memory", l.dynamicSharedMemory)
                .str("launch type", label(l.launchType));
            // Fields that are usually zero or repeat the name are left out then: with millions of
            // kernels they would make up much of the file.
            if (l.localMemoryPerThread != 0 || l.localMemoryTotal != 0)
                args.num("local memory per thread", l.localMemoryPerThread)
                    .unum("local memory total", l.localMemoryTotal);
            addNameUnlessSame(args, "short name", l.shortName, e.name);
            addNameUnlessSame(args, "mangled name", l.mangledName, e.name);
            if (l.graphId != 0 || l.graphNodeId != 0)
                args.num("graph id", l.graphId).unum("graph node id", l.graphNodeId);
            args.close();
            x.close();
        });
    }

    void writeMemoryOperations()
    {
        forEachEvent(m_trace, TrackKind::Memory, [&](const Track& track, EventRef ref, uint32_t) {
            const MemoryEvent e = memoryAt(m_trace, ref);
            const MemoryOp& op = e.op;
            const bool memset = op.kind == MemoryOpKind::Memset;
            std::string_view name = nameOf(track, ref.index);
            const std::string fallback = name.empty() ? memoryOpName(op) : std::string();
            JsonObject x
                = complete(category(TrackKind::Memory, memset), name.empty() ? fallback : name, track, ref);
            JsonObject args = x.object("args");
            addStreamArgs(args, track.key, e.correlation);
            args.unum("bytes", e.bytes);
            if (memset) {
                args.num("value", op.memsetValue).str("memory kind", label(op.srcKind));
            } else {
                args.str("copy kind", label(op.copyKind))
                    .str("src kind", label(op.srcKind))
                    .str("dst kind", label(op.dstKind))
                    .num("src device", op.srcDevice.value)
                    .num("dst device", op.dstDevice.value);
            }
            if (e.end > e.start)
                args.real("memory bandwidth (GB/s)", double(e.bytes) / double(e.end - e.start));
            args.close();
            x.close();
        });
    }

    void writeSynchronization()
    {
        forEachEvent(m_trace, TrackKind::Synchronization, [&](const Track& track, EventRef ref, uint32_t) {
            const SyncEvent e = syncAt(m_trace, ref);
            std::string_view name = nameOf(track, ref.index);
            const std::string fallback = name.empty() ? syncOpName(e.op) : std::string();
            JsonObject x
                = complete(category(TrackKind::Synchronization), name.empty() ? fallback : name, track, ref);
            JsonObject args = x.object("args");
            addStreamArgs(args, track.key, e.correlation);
            args.str("sync type", label(e.op.type)).num("event id", e.op.eventId).close();
            x.close();
        });
    }

    void addNvtxArgs(JsonObject& args, const TrackKey& key, const NvtxAttributes& a)
    {
        if (a.domain.value != 0) args.str("domain", m_trace.domainName(a.domain));
        if (a.category != 0) args.num("category", a.category);
        if (a.hasColor) {
            std::string hex;
            appendArgbHex(hex, a.color);
            args.str("color", hex);
        }
        const PayloadValue payload = decodePayload(a.payloadType, a.payload);
        if (payload.kind != PayloadValue::Kind::None)
            args.str("payload type", payloadTypeName(a.payloadType));
        if (payload.kind == PayloadValue::Kind::Unsigned) args.unum("payload", payload.asUnsigned);
        if (payload.kind == PayloadValue::Kind::Signed) args.num("payload", payload.asSigned);
        if (payload.kind == PayloadValue::Kind::Floating) args.real("payload", payload.asFloating);
        if (a.endThread.value != 0 && a.endThread != key.tid) args.num("end thread", a.endThread.value);
    }

    void writeNvtx()
    {
        int64_t asyncId = 0;
        forEachEvent(m_trace, TrackKind::Nvtx, [&](const Track& track, EventRef ref, uint32_t) {
            const NvtxEvent e = nvtxAt(m_trace, ref);
            const std::string_view name = m_trace.strings[e.name];
            const ChromeRow row = m_layout.rowOf(ref.track);
            if (e.attributes.style == NvtxStyle::StartEnd) {
                ++asyncId;
                JsonObject begin = placed('b', category(TrackKind::Nvtx), name, row, e.start);
                begin.num("id", asyncId);
                JsonObject args = begin.object("args");
                addNvtxArgs(args, track.key, e.attributes);
                args.close();
                begin.close();
                JsonObject end = placed('e', category(TrackKind::Nvtx), name, row, e.end);
                end.num("id", asyncId).close();
                return;
            }
            const bool mark = e.attributes.style == NvtxStyle::Mark;
            const char* nvtx = category(TrackKind::Nvtx);
            JsonObject x = mark ? placed('i', nvtx, name, row, e.start) : complete(nvtx, name, track, ref);
            if (mark) x.str("s", "t");
            JsonObject args = x.object("args");
            addNvtxArgs(args, track.key, e.attributes);
            args.close();
            x.close();
        });
    }

    void writeOsRuntimeCalls()
    {
        forEachEvent(m_trace, TrackKind::OsRuntime, [&](const Track& track, EventRef ref, uint32_t) {
            const OsCall e = osCallAt(m_trace, ref);
            JsonObject x = complete(category(TrackKind::OsRuntime), m_trace.strings[e.name], track, ref);
            x.object("args").num("return value", e.returnValue).close();
            x.close();
        });
    }

    // One flow per GPU operation whose launching API call is in the trace.
    void writeFlows()
    {
        int64_t flowId = 0;
        for (TrackKind kind : {TrackKind::Kernels, TrackKind::Memory, TrackKind::Synchronization}) {
            forEachEvent(m_trace, kind, [&](const Track& track, EventRef ref, uint32_t) {
                if (track.events.correlation[ref.index].value == 0) return;
                const std::optional<EventRef> call = m_trace.correlation.launchingCall(m_trace, ref);
                if (!call) return;
                ++flowId;
                const Timestamp callStart = m_trace.track(call->track).events.start[call->index];
                placed('s', "ac2g", "ac2g", m_layout.rowOf(call->track), callStart).num("id", flowId).close();
                placed('f', "ac2g", "ac2g", m_layout.rowOf(ref.track), track.events.start[ref.index])
                    .num("id", flowId)
                    .str("bp", "e")
                    .close();
            });
        }
    }

    void writeFlowLinks()
    {
        int64_t flowId = 0;
        for (const FlowLink& link : m_trace.flows) {
            ++flowId;
            const std::string_view name = m_trace.strings[link.name];
            const Timestamp fromStart = m_trace.track(link.from.track).events.start[link.from.index];
            const Timestamp toStart = m_trace.track(link.to.track).events.start[link.to.index];
            placed('s', "flow", name, m_layout.rowOf(link.from.track), fromStart).num("id", flowId).close();
            placed('f', "flow", name, m_layout.rowOf(link.to.track), toStart)
                .num("id", flowId)
                .str("bp", "e")
                .close();
        }
    }

    void writeOtherData(const ExportOptions& options)
    {
        const ReportMetadata& m = m_trace.metadata;
        std::string commandLine;
        for (const std::string& arg : m.commandLine)
            commandLine += (commandLine.empty() ? "" : " ") + arg;
        JsonObject data(m_out);
        data.str("exporter", "Sightline " SIGHTLINE_VERSION)
            .str("source", options.sourcePath)
            .str("toolVersion", m.toolVersion)
            .str("producer", m.producer)
            .str("commandLine", commandLine)
            .str("hostname", m.hostname)
            .str("os", m.osName)
            .str("cpu", m.cpuModel)
            .str("driverVersion", m.driverVersion)
            .str("cudaVersion", m.cudaVersion)
            .num("startTimeUtcNs", m.startTimeUtcNs)
            .close();
    }

    const Trace& m_trace;
    ChromeTraceLayout m_layout;
    TextOutput& m_output;
    std::string& m_out;
    bool m_firstEvent = true;
};

} // namespace

Status exportChromeTrace(const Trace& trace, const std::string& path, const ExportOptions& options)
{
    TextOutput output;
    if (Status opened = output.open(path, options.overwrite); !opened) return opened;
    try {
        ChromeTraceWriter(trace, output).write(options);
    } catch (const std::bad_alloc&) {
        return Status::failure("Cannot write '" + path
            + "': out of memory while exporting; close other programs and try again.");
    }
    return output.finish();
}

} // namespace sightline
