// GPU metrics from TARGET_INFO_GPU_METRICS and GPU_METRICS: each typeId (a GPU's metrics, its
// sourceId the device) becomes one counter timeline of its distinct timestamps, each metric a
// series over it ("Name [unit]" split into name and unit; a metric without a value at a
// timestamp is unknown there). A sample lasts until the next; the last one, and one before a
// pause longer than twice the usual spacing, as long as the usual spacing.
#include "model/construct/memory_usage_series.h"
#include "model/import/nsys/nsys_importer.h"
#include "model/nsys/global_id.h"
#include "model/nsys/sqlite_schema.h"

#include <algorithm>
#include <cmath>
#include <map>

namespace sightline::nsys_import {

namespace {

struct MetricRow
{
    int64_t typeId, timestamp, metricId;
    double value;
};

std::pair<std::string, std::string> splitUnit(std::string_view name)
{
    const size_t open = name.rfind(" [");
    if (open == std::string_view::npos || name.back() != ']') return {std::string(name), ""};
    return {std::string(name.substr(0, open)), std::string(name.substr(open + 2, name.size() - open - 3))};
}

} // namespace

void Importer::readGpuMetrics()
{
    if (!m_db.hasTable(nsys::table::kGpuMetrics) || !m_db.hasTable(nsys::table::kTargetInfoGpuMetrics))
        return;
    struct MetricInfo
    {
        uint32_t device;
        std::string name, unit;
    };
    std::map<std::pair<int64_t, int64_t>, MetricInfo> metrics; // (typeId, metricId)
    {
        enum { kType, kSource, kMetric, kName };
        constexpr Column kColumns[]
            = {{"typeId", true}, {"sourceId", true}, {"metricId", true}, {"metricName", true}};
        SqliteRows rows = select(nsys::table::kTargetInfoGpuMetrics, kColumns);
        while (rows.next()) {
            auto [name, unit] = splitUnit(rows.text(kName));
            metrics[{rows.integer(kType), rows.integer(kMetric)}]
                = {uint32_t(rows.integer(kSource)), std::move(name), std::move(unit)};
        }
    }
    std::vector<MetricRow> samples;
    {
        enum { kTime, kType, kMetric, kValue };
        constexpr Column kColumns[]
            = {{"timestamp", true}, {"typeId", true}, {"metricId", true}, {"value", true}};
        SqliteRows rows = select(nsys::table::kGpuMetrics, kColumns);
        while (rows.next()) {
            tick();
            if (!metrics.count({rows.integer(kType), rows.integer(kMetric)})) continue;
            const std::optional<Timestamp> time = rowTime(rows, kTime, nsys::table::kGpuMetrics);
            if (!time) continue;
            samples.push_back({rows.integer(kType), *time, rows.integer(kMetric), rows.real(kValue)});
        }
    }
    std::sort(samples.begin(), samples.end(), [](const MetricRow& a, const MetricRow& b) {
        return std::tie(a.typeId, a.timestamp) < std::tie(b.typeId, b.timestamp);
    });
    for (size_t begin = 0; begin < samples.size();) {
        const int64_t typeId = samples[begin].typeId;
        size_t end = begin;
        std::vector<Timestamp> times;
        while (end < samples.size() && samples[end].typeId == typeId) {
            if (times.empty() || times.back() != samples[end].timestamp)
                times.push_back(samples[end].timestamp);
            ++end;
        }
        // The usual spacing: the median difference of neighbouring timestamps.
        std::vector<Duration> gaps;
        for (size_t i = 1; i < times.size(); ++i)
            gaps.push_back(times[i] - times[i - 1]);
        std::nth_element(gaps.begin(), gaps.begin() + int64_t(gaps.size() / 2), gaps.end());
        const Duration spacing = gaps.empty() ? 1 : std::max<Duration>(1, gaps[gaps.size() / 2]);
        CounterTimeline timeline;
        std::vector<size_t> slotOf; // index in `times` -> sample index in the timeline
        for (size_t i = 0; i < times.size(); ++i) {
            if (i > 0 && times[i] - times[i - 1] > 2 * spacing)
                timeline.starts.push_back(times[i - 1] + spacing);
            slotOf.push_back(timeline.starts.size());
            timeline.starts.push_back(times[i]);
        }
        timeline.end = times.back() + spacing;
        noteEnd(timeline.end);
        std::map<int64_t, std::vector<double>> values; // per metricId
        for (size_t i = begin; i < end; ++i) {
            auto& column = values[samples[i].metricId];
            if (column.empty()) column.assign(timeline.size(), std::nan(""));
            const size_t t
                = size_t(std::lower_bound(times.begin(), times.end(), samples[i].timestamp) - times.begin());
            column[slotOf[t]] = samples[i].value;
        }
        const uint32_t index = m_builder.addCounterTimeline(std::move(timeline));
        for (auto& [metricId, column] : values) {
            const MetricInfo& info = metrics.at({typeId, metricId});
            CounterSeries series;
            series.device = DeviceId(info.device);
            series.timeline = index;
            series.name = info.name;
            series.unit = info.unit;
            series.description = "imported from " + std::string(nsys::table::kGpuMetrics);
            series.resolution = 0.001;
            series.values = std::move(column);
            m_builder.addCounterSeries(std::move(series));
        }
        begin = end;
    }
}

void Importer::readMemoryUsage()
{
    const char* table = nsys::table::kCudaGpuMemoryUsageEvents;
    if (!m_db.hasTable(table)) return;
    enum { kStart, kDevice, kBytes, kOperation, kGlobalPid, kContext, kAddress, kKind, kCorrelation };
    constexpr Column kColumns[] = {{"start", true}, {"deviceId", true}, {"bytes", true},
        {"memoryOperationType", true}, {"globalPid", false}, {"contextId", false}, {"address", false},
        {"memKind", false}, {"correlationId", false}};
    std::vector<MemoryUsageEvent> events;
    SqliteRows rows = select(table, kColumns);
    while (rows.next()) {
        tick();
        const std::optional<Timestamp> time = rowTime(rows, kStart, table);
        if (!time) continue;
        noteEnd(*time);
        MemoryUsageEvent& e = events.emplace_back();
        e.time = *time;
        e.pid = pidOfGlobalId(rows.integerOr(kGlobalPid, 0));
        e.device = DeviceId(u32(rows.integer(kDevice)));
        e.context = ContextId(u32(rows.integerOr(kContext, 0)));
        e.address = uint64_t(rows.integerOr(kAddress, 0));
        e.bytes = uint64_t(std::max<int64_t>(0, rows.integer(kBytes)));
        e.kind = enumOr(
            rows.integerOr(kKind, int64_t(MemoryKind::Unknown)), kMemoryKindCount, MemoryKind::Unknown);
        e.release = rows.integer(kOperation) == 1;
        e.correlation = CorrelationId(u32(rows.integerOr(kCorrelation, 0)));
    }
    const size_t unmatched = addMemoryUsage(m_builder, std::move(events), m_traceEnd);
    if (unmatched > 0)
        m_builder.addDiagnostic({Severity::Info, "import",
            std::to_string(unmatched) + " GPU memory releases in " + table
                + " were of memory allocated before the capture; the memory row counts from zero."});
}

} // namespace sightline::nsys_import
