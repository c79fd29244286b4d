// GPU metric sets: which hardware metrics the sampler asks CUPTI's PM sampling for, and the
// series the report shows, each derived from one or two of those metrics for every sample.
//
// A set names CUPTI metrics that fit in one pass (PM sampling refuses more), chosen from those
// measured on GH100 (see ../shared/reference/hardware-sampling.md). A metric may name several
// forms, cheapest first ("A|B"): the session samples the first one the chip accepts. CUPTI's
// decoding of a sample costs about 2 us plus some per raw counter the forms need, and the
// chips' own "TriageCompute" counters, made for sampling, need fewer. Where a chip refuses every
// form of some metrics, restrictTo() keeps the series whose metrics remain, and the sampler says
// which went.
#pragma once

#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::sampler {

// How a series' value comes from the raw metric values of one sample.
enum class Formula {
    Value, // raw[a]
    ScaledByPercent, // raw[a] * raw[b] / 100 (a share of a share)
    PerSecond, // raw[a] / the sample's duration in seconds
    Percent, // 100 * raw[a] / raw[b]
};

struct SeriesDefinition
{
    std::string name; // "SMs Active", as the report shows it
    std::string unit; // "%", "B/s"
    std::string description; // one line: what it means and how it is computed
    double resolution = 0.1; // the value is stored as a multiple of it
    Formula formula = Formula::Value;
    size_t a = 0, b = 0; // indices into MetricSet::metrics
};

struct MetricSet
{
    std::string name; // "--gpu-metrics-set" value
    std::string summary;
    std::vector<std::string> metrics; // CUPTI metric names, or forms of one ("A|B")
    std::vector<SeriesDefinition> series;
};

// The forms of one of MetricSet::metrics, in order of preference.
std::vector<std::string> metricForms(const std::string& metric);

const std::vector<MetricSet>& metricSets();
const MetricSet& defaultMetricSet();
const MetricSet* findMetricSet(std::string_view name);

// The set with only the series whose metrics are all available (`available[i]` for
// set.metrics[i]); metrics no series needs any more are dropped too, indices renumbered.
MetricSet restrictTo(const MetricSet& set, const std::vector<bool>& available);

// The series values of one sample from its raw metric values (NaN where the formula has no
// answer, such as a share of zero elapsed cycles).
void deriveSeries(
    const MetricSet& set, std::span<const double> raw, int64_t durationNs, std::span<double> out);

} // namespace sightline::sampler
