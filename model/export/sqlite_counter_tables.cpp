// Counter series as Nsight Systems exports them. GPU metrics: TARGET_INFO_GPU_METRICS names each
// metric of each GPU ("SMs Active [%]"; typeId kGpuMetricsTypeBase + device, sourceId the
// device, metricId the series' place among its GPU's), GPU_METRICS holds one row per known
// sample (its start). GPU memory in use: CUDA_GPU_MEMORY_USAGE_EVENTS gets one row per
// allocation or release record (Trace::memoryUsage), with its process, context, address, kind
// and correlation id, so it joins the API tables as in nsys' own exports; program counters are
// not recorded (0). A report written before the records were kept has only the series: then
// each step of it is a row, with zeros for what it does not know.
#include "model/export/sqlite_tables.h"
#include "model/nsys/global_id.h"
#include "model/nsys/sqlite_schema.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace sightline::sqlite_export {

void writeCounterTables(SqliteDatabase& db, const Trace& trace)
{
    SqliteInsert names(db, nsys::kTargetInfoGpuMetrics);
    SqliteInsert samples(db, nsys::kGpuMetrics);
    std::map<uint32_t, int64_t> nextMetric; // per device
    for (const CounterSeries& series : trace.counterSeries) {
        if (series.source != CounterSource::GpuMetrics) continue;
        const int64_t typeId = nsys::kGpuMetricsTypeBase + series.device.value;
        const int64_t metricId = nextMetric[series.device.value]++;
        const std::string typeName = "GPU " + std::to_string(series.device.value) + " metrics";
        const std::string metricName = series.name + " [" + series.unit + "]";
        names.integer(typeId)
            .integer(series.device.value)
            .text(typeName)
            .integer(metricId)
            .text(metricName)
            .insertRow();
        const CounterTimeline& timeline = trace.timelineOf(series);
        for (size_t i = 0; i < timeline.size(); ++i)
            if (!std::isnan(series.values[i]))
                samples.integer(timeline.starts[i])
                    .integer(typeId)
                    .integer(metricId)
                    .real(series.values[i])
                    .insertRow();
    }
    SqliteInsert memory(db, nsys::kCudaGpuMemoryUsageEvents);
    for (const MemoryUsageEvent& e : trace.memoryUsage) {
        memory.integer(e.time)
            .integer(globalPid(e.pid))
            .integer(e.device.value)
            .integer(e.context.value)
            .integer(int64_t(e.address))
            .integer(0) // pc
            .integer(int64_t(std::min<uint64_t>(e.bytes, INT64_MAX)))
            .integer(int(e.kind))
            .integer(e.release ? 1 : 0) // memoryOperationType: 0 allocation, 1 release
            .null() // name
            .integerOrNull(
                e.correlation.value != 0 ? std::optional<int64_t>(e.correlation.value) : std::nullopt)
            .insertRow();
    }
    if (!trace.memoryUsage.empty()) return;
    for (const CounterSeries& series : trace.counterSeries) {
        if (series.source != CounterSource::GpuMemory) continue;
        const CounterTimeline& timeline = trace.timelineOf(series);
        double before = 0;
        for (size_t i = 0; i < timeline.size(); ++i) {
            if (std::isnan(series.values[i]) || series.values[i] == before) continue;
            const int64_t change = int64_t(series.values[i] - before);
            before = series.values[i];
            memory.integer(timeline.starts[i])
                .integer(0) // globalPid
                .integer(series.device.value)
                .integer(0) // contextId
                .integer(0) // address
                .integer(0) // pc
                .integer(change < 0 ? -change : change)
                .integer(int(MemoryKind::Device))
                .integer(change < 0 ? 1 : 0) // memoryOperationType: 0 allocation, 1 release
                .null() // name
                .null() // correlationId
                .insertRow();
        }
    }
}

} // namespace sightline::sqlite_export
