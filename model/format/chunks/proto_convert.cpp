#include "model/format/chunks/proto_convert.h"

namespace sightline::rep {
namespace {

void toProto(const KeyValueList& list, google::protobuf::RepeatedPtrField<KeyValue>& out)
{
    for (const auto& [key, value] : list) {
        auto* kv = out.Add();
        kv->set_key(key);
        kv->set_value(value);
    }
}

KeyValueList fromProto(const google::protobuf::RepeatedPtrField<KeyValue>& list)
{
    KeyValueList out;
    for (const auto& kv : list)
        out.emplace_back(kv.key(), kv.value());
    return out;
}

std::vector<std::string> strings(const google::protobuf::RepeatedPtrField<std::string>& list)
{
    return {list.begin(), list.end()};
}

// Appends `items` to `table` at `first`, which may repeat the table's end but never leave a gap
// after it: false, with nothing appended, for an increment that starts past the end (a count a
// damaged file made up, which must not be allocated).
template <class Model, class Proto, class Convert>
bool appendIncrement(std::vector<Model>& table, uint32_t first,
    const google::protobuf::RepeatedPtrField<Proto>& items, Convert convert)
{
    if (first > table.size()) return false;
    table.resize(first);
    for (const auto& item : items)
        table.push_back(convert(item));
    return true;
}

} // namespace

void toProto(const ReportMetadata& m, Header& out)
{
    out.set_format_major(kFormatMajor);
    out.set_format_minor(kFormatMinor);
    out.set_tool_version(m.toolVersion);
    out.set_producer(m.producer);
    for (const auto& arg : m.commandLine)
        out.add_command_line(arg);
    out.set_working_directory(m.workingDirectory);
    out.set_hostname(m.hostname);
    out.set_os_name(m.osName);
    out.set_cpu_model(m.cpuModel);
    out.set_cpu_cores(m.cpuCores);
    out.set_driver_version(m.driverVersion);
    out.set_cuda_version(m.cudaVersion);
    out.set_cupti_version(m.cuptiVersion);
    out.set_start_time_utc_ns(m.startTimeUtcNs);
    toProto(m.options, *out.mutable_options());
    toProto(m.environment, *out.mutable_environment());
}

ReportMetadata fromProto(const Header& h)
{
    ReportMetadata m;
    m.toolVersion = h.tool_version();
    m.producer = h.producer();
    m.commandLine = strings(h.command_line());
    m.workingDirectory = h.working_directory();
    m.hostname = h.hostname();
    m.osName = h.os_name();
    m.cpuModel = h.cpu_model();
    m.cpuCores = h.cpu_cores();
    m.driverVersion = h.driver_version();
    m.cudaVersion = h.cuda_version();
    m.cuptiVersion = h.cupti_version();
    m.startTimeUtcNs = h.start_time_utc_ns();
    m.options = fromProto(h.options());
    m.environment = fromProto(h.environment());
    return m;
}

void toProto(const Trace& trace, Entities& out)
{
    for (const auto& p : trace.processes) {
        auto* m = out.add_processes();
        m->set_pid(p.pid.value);
        m->set_name(p.name);
        for (const auto& arg : p.commandLine)
            m->add_command_line(arg);
    }
    for (const auto& t : trace.threads) {
        auto* m = out.add_threads();
        m->set_pid(t.pid.value);
        m->set_tid(t.tid.value);
        m->set_name(t.name);
    }
    for (const auto& g : trace.gpus) {
        auto* m = out.add_gpus();
        m->set_device(g.device.value);
        m->set_name(g.name);
        m->set_uuid(g.uuid);
        m->set_bus_id(g.busId);
        m->set_compute_major(g.computeMajor);
        m->set_compute_minor(g.computeMinor);
        m->set_sm_count(g.smCount);
        m->set_memory_bytes(g.memoryBytes);
        m->set_core_clock_khz(g.coreClockKHz);
        m->set_memory_clock_khz(g.memoryClockKHz);
    }
    for (const auto& c : trace.contexts) {
        auto* m = out.add_contexts();
        m->set_pid(c.pid.value);
        m->set_device(c.device.value);
        m->set_context(c.context.value);
    }
    for (const auto& s : trace.streams) {
        auto* m = out.add_streams();
        m->set_pid(s.pid.value);
        m->set_device(s.device.value);
        m->set_context(s.context.value);
        m->set_stream(s.stream.value);
        m->set_priority(s.priority);
        m->set_is_default(s.isDefault);
    }
    for (const auto& d : trace.domains) {
        auto* m = out.add_domains();
        m->set_id(d.id.value);
        m->set_name(d.name);
    }
}

void fromProto(const Entities& e, Trace& trace)
{
    for (const auto& p : e.processes())
        trace.processes.push_back({Pid(p.pid()), p.name(), strings(p.command_line())});
    for (const auto& t : e.threads())
        trace.threads.push_back({Pid(t.pid()), Tid(t.tid()), t.name()});
    for (const auto& g : e.gpus())
        trace.gpus.push_back({DeviceId(g.device()), g.name(), g.uuid(), g.bus_id(), g.compute_major(),
            g.compute_minor(), g.sm_count(), g.memory_bytes(), g.core_clock_khz(), g.memory_clock_khz()});
    for (const auto& c : e.contexts())
        trace.contexts.push_back({Pid(c.pid()), DeviceId(c.device()), ContextId(c.context())});
    for (const auto& s : e.streams())
        trace.streams.push_back({Pid(s.pid()), DeviceId(s.device()), ContextId(s.context()),
            StreamId(s.stream()), s.priority(), s.is_default()});
    for (const auto& d : e.domains())
        trace.domains.push_back({DomainId(d.id()), d.name()});
}

void toProto(const Trace& trace, Descriptors& out)
{
    for (const auto& d : trace.apiResults) {
        auto* m = out.add_api_results();
        m->set_api_class(uint32_t(d.apiClass));
        m->set_return_code(d.returnCode);
    }
    for (const auto& d : trace.kernelLaunches) {
        auto* m = out.add_kernel_launches();
        m->set_short_name(d.shortName.value);
        m->set_mangled_name(d.mangledName.value);
        for (auto v : d.grid)
            m->add_grid(v);
        for (auto v : d.block)
            m->add_block(v);
        m->set_registers_per_thread(d.registersPerThread);
        m->set_static_shared_memory(d.staticSharedMemory);
        m->set_dynamic_shared_memory(d.dynamicSharedMemory);
        m->set_local_memory_per_thread(d.localMemoryPerThread);
        m->set_local_memory_total(d.localMemoryTotal);
        m->set_launch_type(uint32_t(d.launchType));
        m->set_graph_id(d.graphId);
        m->set_graph_node_id(d.graphNodeId);
    }
    for (const auto& d : trace.memoryOps) {
        auto* m = out.add_memory_ops();
        m->set_kind(uint32_t(d.kind));
        m->set_copy_kind(uint32_t(d.copyKind));
        m->set_src_kind(uint32_t(d.srcKind));
        m->set_dst_kind(uint32_t(d.dstKind));
        m->set_memset_value(d.memsetValue);
        m->set_src_device(d.srcDevice.value);
        m->set_dst_device(d.dstDevice.value);
    }
    for (const auto& d : trace.syncOps) {
        auto* m = out.add_sync_ops();
        m->set_type(uint32_t(d.type));
        m->set_event_id(d.eventId);
    }
    for (const auto& d : trace.nvtxAttributes) {
        auto* m = out.add_nvtx_attributes();
        m->set_style(uint32_t(d.style));
        m->set_domain(d.domain.value);
        m->set_category(d.category);
        m->set_color(d.color);
        m->set_has_color(d.hasColor);
        m->set_end_thread(d.endThread.value);
        m->set_payload_type(uint32_t(d.payloadType));
        m->set_payload(d.payload);
    }
}

bool fromProto(const Descriptors& d, Trace& trace)
{
    bool ok = true;
    ok &= appendIncrement(trace.apiResults, d.api_results_first(), d.api_results(), [](const ApiResult& m) {
        return sightline::ApiResult {sightline::ApiClass(m.api_class()), m.return_code()};
    });
    ok &= appendIncrement(
        trace.kernelLaunches, d.kernel_launches_first(), d.kernel_launches(), [](const KernelLaunch& m) {
            sightline::KernelLaunch k;
            k.shortName = StringId(m.short_name());
            k.mangledName = StringId(m.mangled_name());
            for (int i = 0; i < 3 && i < m.grid_size(); ++i)
                k.grid[i] = m.grid(i);
            for (int i = 0; i < 3 && i < m.block_size(); ++i)
                k.block[i] = m.block(i);
            k.registersPerThread = m.registers_per_thread();
            k.staticSharedMemory = m.static_shared_memory();
            k.dynamicSharedMemory = m.dynamic_shared_memory();
            k.localMemoryPerThread = m.local_memory_per_thread();
            k.localMemoryTotal = m.local_memory_total();
            k.launchType = LaunchType(m.launch_type());
            k.graphId = m.graph_id();
            k.graphNodeId = m.graph_node_id();
            return k;
        });
    ok &= appendIncrement(trace.memoryOps, d.memory_ops_first(), d.memory_ops(), [](const MemoryOp& m) {
        return sightline::MemoryOp {MemoryOpKind(m.kind()), CopyKind(m.copy_kind()), MemoryKind(m.src_kind()),
            MemoryKind(m.dst_kind()), m.memset_value(), DeviceId(m.src_device()), DeviceId(m.dst_device())};
    });
    ok &= appendIncrement(trace.syncOps, d.sync_ops_first(), d.sync_ops(), [](const SyncOp& m) {
        return sightline::SyncOp {SyncType(m.type()), m.event_id()};
    });
    ok &= appendIncrement(
        trace.nvtxAttributes, d.nvtx_attributes_first(), d.nvtx_attributes(), [](const NvtxAttributes& m) {
            sightline::NvtxAttributes a;
            a.style = NvtxStyle(m.style());
            a.domain = DomainId(m.domain());
            a.category = m.category();
            a.color = m.color();
            a.hasColor = m.has_color();
            a.endThread = Tid(m.end_thread());
            a.payloadType = PayloadType(m.payload_type());
            a.payload = m.payload();
            return a;
        });
    return ok;
}

void toProto(const std::vector<sightline::Diagnostic>& diagnostics, Diagnostics& out)
{
    for (const auto& d : diagnostics) {
        auto* m = out.add_items();
        m->set_severity(uint32_t(d.severity));
        m->set_source(d.source);
        m->set_text(d.text);
    }
}

void fromProto(const Diagnostics& diagnostics, std::vector<sightline::Diagnostic>& out)
{
    for (const auto& d : diagnostics.items())
        out.push_back({Severity(d.severity()), d.source(), d.text()});
}

} // namespace sightline::rep
