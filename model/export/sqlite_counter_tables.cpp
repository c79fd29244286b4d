// GPU metrics as Nsight Systems exports them: TARGET_INFO_GPU_METRICS names each metric of each
// GPU ("SMs Active [%]"; typeId kGpuMetricsTypeBase + device, sourceId the device, metricId the
// series' place among its GPU's), GPU_METRICS holds one row per known sample (its start).
#include "model/export/sqlite_tables.h"
#include "model/nsys/sqlite_schema.h"

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
}

} // namespace sightline::sqlite_export
