#include "collector/sampler/metric_sets.h"

#include "model/core/counters.h"

#include <cmath>

namespace sightline::sampler {

namespace {

// Indices into the general set's metric list below.
enum GeneralMetric : size_t {
    SmActive,
    WarpsPerActiveCycle,
    TensorActive,
    DramThroughput,
    DramRead,
    DramWrite,
    PcieRead,
    PcieWrite,
    GrActive,
    GrElapsed,
};

MetricSet generalSet()
{
    MetricSet set;
    set.name = "general";
    set.summary = "SM, warp and tensor activity, DRAM and PCIe traffic, GPU activity (the default)";
    // On an H200 under an FMA loop at 10 kHz the plain forms made 34.6 KiB of counter data a
    // sample and cost 61-100 us each to decode; these forms make 25.7 KiB and cost 33.5 us, with
    // the same values (SMs Active 99.6 in the loop, DRAM Bandwidth 80.7% in a copy, Tensor
    // Active 93.7% in a GEMM). The warps metric has no TriageCompute form of the same meaning:
    // tpc__warps_active_realtime read 4% where the copy kernel's warps filled 95%.
    set.metrics = {"TPC.TriageCompute.sm__cycles_active.avg.pct_of_peak_sustained_elapsed"
                   "|sm__cycles_active.avg.pct_of_peak_sustained_elapsed",
        "sm__warps_active.avg.pct_of_peak_sustained_active",
        "TPC.TriageCompute.sm__pipe_tensor_cycles_active_realtime.avg.pct_of_peak_sustained_elapsed"
        "|sm__pipe_tensor_cycles_active.avg.pct_of_peak_sustained_elapsed",
        "FBSP.TriageCompute.dramc__throughput.avg.pct_of_peak_sustained_elapsed"
        "|dram__throughput.avg.pct_of_peak_sustained_elapsed",
        "dram__bytes_read.sum", "dram__bytes_write.sum",
        "PCI.TriageCompute.pcie__read_bytes.sum|pcie__read_bytes.sum",
        "PCI.TriageCompute.pcie__write_bytes.sum|pcie__write_bytes.sum", "gr__cycles_active.sum",
        "gr__cycles_elapsed.max"};
    set.series = {
        {gpu_metric::kSmsActive, "%",
            "share of the SMs' cycles in which they had at least one warp resident (sm__cycles_active)", 0.1,
            Formula::Value, SmActive, 0},
        {gpu_metric::kWarpOccupancy, "%",
            "resident warps as a share of the maximum warps of all SMs over elapsed cycles (sm__warps_active "
            "per active cycle times SMs Active)",
            0.1, Formula::ScaledByPercent, WarpsPerActiveCycle, SmActive},
        {gpu_metric::kTensorActive, "%",
            "share of cycles the SMs' tensor pipes were active (sm__pipe_tensor_cycles_active)", 0.1,
            Formula::Value, TensorActive, 0},
        {"DRAM Bandwidth", "%", "DRAM throughput as a share of its peak (dram__throughput)", 0.1,
            Formula::Value, DramThroughput, 0},
        {"DRAM Read", "B/s", "bytes read from DRAM per second (dram__bytes_read)", 1e6, Formula::PerSecond,
            DramRead, 0},
        {"DRAM Write", "B/s", "bytes written to DRAM per second (dram__bytes_write)", 1e6, Formula::PerSecond,
            DramWrite, 0},
        {"PCIe Read", "B/s", "bytes the GPU read over PCIe per second (pcie__read_bytes)", 1e3,
            Formula::PerSecond, PcieRead, 0},
        {"PCIe Write", "B/s", "bytes the GPU wrote over PCIe per second (pcie__write_bytes)", 1e3,
            Formula::PerSecond, PcieWrite, 0},
        {"GPU Active", "%", "share of cycles the graphics/compute engine was busy (gr__cycles_active)", 0.1,
            Formula::Percent, GrActive, GrElapsed},
    };
    return set;
}

// Only what the tutorials' conclusions rest on: fewer values per sample.
MetricSet smSet()
{
    MetricSet general = generalSet();
    std::vector<bool> keep(general.metrics.size(), false);
    keep[SmActive] = keep[WarpsPerActiveCycle] = keep[TensorActive] = true;
    MetricSet set = restrictTo(general, keep);
    set.name = "sm";
    set.summary = "SMs Active, Warp Occupancy and Tensor Active only";
    return set;
}

// The tensor pipes one by one, and the FP32 FMA pipe beside them: which kind of matrix
// instruction kept the GPU busy. A chip without one of them leaves its series out.
MetricSet tensorSet()
{
    MetricSet set;
    set.name = "tensor";
    set.summary = "the tensor pipes by instruction kind, and the FMA pipe";
    const std::pair<const char*, const char*> pipes[] = {
        {gpu_metric::kTensorActive, "sm__pipe_tensor_cycles_active"},
        {"Tensor HMMA", "sm__pipe_tensor_op_hmma_cycles_active"},
        {"Tensor GMMA", "sm__pipe_tensor_op_gmma_cycles_active"},
        {"Tensor IMMA", "sm__pipe_tensor_op_imma_cycles_active"},
        {"Tensor DMMA", "sm__pipe_tensor_op_dmma_cycles_active"},
        {"FMA Pipe", "sm__pipe_fma_cycles_active"},
    };
    for (const auto& [name, metric] : pipes) {
        set.series.push_back(
            {name, "%", std::string("share of cycles the SMs' pipe was active (") + metric + ")", 0.1,
                Formula::Value, set.metrics.size(), 0});
        set.metrics.push_back(std::string(metric) + ".avg.pct_of_peak_sustained_elapsed");
    }
    return set;
}

} // namespace

std::vector<std::string> metricForms(const std::string& metric)
{
    std::vector<std::string> forms;
    size_t begin = 0;
    for (;;) {
        const size_t bar = metric.find('|', begin);
        forms.push_back(metric.substr(begin, bar == std::string::npos ? std::string::npos : bar - begin));
        if (bar == std::string::npos) return forms;
        begin = bar + 1;
    }
}

const std::vector<MetricSet>& metricSets()
{
    static const std::vector<MetricSet> sets {generalSet(), smSet(), tensorSet()};
    return sets;
}

const MetricSet& defaultMetricSet()
{
    return metricSets().front();
}

const MetricSet* findMetricSet(std::string_view name)
{
    for (const MetricSet& set : metricSets())
        if (set.name == name) return &set;
    return nullptr;
}

MetricSet restrictTo(const MetricSet& set, const std::vector<bool>& available)
{
    MetricSet out;
    out.name = set.name;
    out.summary = set.summary;
    std::vector<size_t> renumbered(set.metrics.size(), SIZE_MAX);
    auto use = [&](size_t metric) {
        if (renumbered[metric] == SIZE_MAX) {
            renumbered[metric] = out.metrics.size();
            out.metrics.push_back(set.metrics[metric]);
        }
        return renumbered[metric];
    };
    for (const SeriesDefinition& series : set.series) {
        const bool needsB = series.formula == Formula::ScaledByPercent || series.formula == Formula::Percent;
        if (!available[series.a] || (needsB && !available[series.b])) continue;
        SeriesDefinition kept = series;
        kept.a = use(series.a);
        kept.b = needsB ? use(series.b) : 0;
        out.series.push_back(kept);
    }
    return out;
}

void deriveSeries(
    const MetricSet& set, std::span<const double> raw, int64_t durationNs, std::span<double> out)
{
    const double seconds = double(durationNs) * 1e-9;
    for (size_t i = 0; i < set.series.size() && i < out.size(); ++i) {
        const SeriesDefinition& s = set.series[i];
        const double a = raw[s.a];
        double value = a;
        switch (s.formula) {
        case Formula::Value:
            break;
        case Formula::ScaledByPercent:
            value = a * raw[s.b] / 100.0;
            break;
        case Formula::PerSecond:
            value = seconds > 0 ? a / seconds : std::nan("");
            break;
        case Formula::Percent:
            value = raw[s.b] > 0 ? 100.0 * a / raw[s.b] : std::nan("");
            break;
        }
        out[i] = std::isfinite(value) ? value : std::nan("");
    }
}

} // namespace sightline::sampler
