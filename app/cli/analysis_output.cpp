#include "app/cli/analysis_output.h"

#include "model/analysis/finding_text.h"
#include "model/text/csv_writer.h"
#include "model/text/json_string.h"
#include "model/text/time_text.h"

#include <algorithm>

namespace sightline::cli {

namespace {

constexpr size_t kLaunchRows = 10;

std::string gpuTimeLine(const Trace& trace, const GpuTimeBreakdown& b)
{
    return sentence(
        "%s over %s: kernels %.1f%%, communication %.1f%%, copies %.1f%%, idle %.1f%% (CPU late %.1f%%, "
        "synchronizing %.1f%%, in launch calls %.1f%%)",
        gpuLabel(trace, b.device).c_str(), formatDuration(b.span).c_str(), percentOf(b.compute, b.span),
        percentOf(b.communication, b.span), percentOf(b.memory, b.span), percentOf(b.idle, b.span),
        percentOf(b.idleCpuLate, b.span), percentOf(b.idleSynchronizing, b.span),
        percentOf(b.idleLaunching, b.span));
}

std::string averageOf(Duration total, size_t count)
{
    return count > 0 ? formatDuration(total / Duration(count)) : std::string("-");
}

void appendJsonField(std::string& out, std::string_view name, std::string_view value, bool comma = true)
{
    appendJsonString(out, name);
    out += ':';
    appendJsonString(out, value);
    if (comma) out += ',';
}

void appendJsonNumber(std::string& out, std::string_view name, int64_t value, bool comma = true)
{
    appendJsonString(out, name);
    out += ':' + std::to_string(value);
    if (comma) out += ',';
}

} // namespace

void writeAnalysisText(
    std::ostream& out, const Trace& trace, const AnalysisResult& result, size_t evidenceShown)
{
    for (size_t v = 0; v < result.verdicts.size(); ++v) {
        const Verdict& verdict = result.verdicts[v];
        if (v == 0)
            out << "Verdict (" << verdict.scope << "): " << limitName(verdict.limit) << "\n  "
                << verdict.reason << "\n";
        else {
            if (v == 1) out << "\nTop-level NVTX ranges:\n";
            out << "  " << verdict.scope << " (" << verdict.instances
                << (verdict.instances == 1 ? " range" : " ranges") << "): " << limitName(verdict.limit)
                << "\n    " << verdict.reason << "\n";
        }
    }
    if (!result.gpus.empty()) out << "\nGPU time:\n";
    for (const GpuTimeBreakdown& b : result.gpus)
        out << "  " << gpuTimeLine(trace, b) << "\n";

    out << "\nFindings: " << (result.findings.empty() ? "none" : std::to_string(result.findings.size()))
        << "\n";
    for (const Finding& f : result.findings) {
        out << "\n[" << severityName(f.severity) << "] " << f.rule << ": " << f.summary
            << "\n  What to do: " << f.advice << "\n";
        const size_t shown = std::min(evidenceShown, f.evidence.size());
        if (shown == 0) continue;
        out << "  Evidence (" << shown << " of " << f.evidenceCount << "):\n";
        for (size_t e = 0; e < shown; ++e) {
            const Evidence& ev = f.evidence[e];
            out << "    " << formatTimestamp(ev.range.start) << " +" << formatDuration(ev.range.duration())
                << "  " << ev.label << "\n";
        }
    }

    if (!result.launches.empty()) {
        out << "\nLaunches (kernel names by GPU time, top " << std::min(kLaunchRows, result.launches.size())
            << " of " << result.launches.size()
            << "): count, GPU time, average kernel, average launch call, average launch "
            << "to start, kernels shorter than their launch\n";
        for (size_t k = 0; k < std::min(kLaunchRows, result.launches.size()); ++k) {
            const KernelLaunchStats& s = result.launches[k];
            out << "  " << trace.strings[s.name] << ": " << s.count << ", " << formatDuration(s.kernelTime)
                << ", " << averageOf(s.kernelTime, s.count) << ", " << averageOf(s.launchCost, s.count)
                << ", " << averageOf(s.launchLatency, s.count) << ", " << s.shorterThanLaunch << "\n";
        }
    }
    if (!result.occupancy.empty()) {
        out << "\nOccupancy (kernel names by launches, top " << std::min(kLaunchRows, result.occupancy.size())
            << " of " << result.occupancy.size()
            << "): theoretical, what limits it, measured warp occupancy and SMs active\n";
        for (size_t k = 0; k < std::min(kLaunchRows, result.occupancy.size()); ++k) {
            const KernelOccupancy& o = result.occupancy[k];
            out << "  " << trace.strings[o.name] << " (GPU " << o.device.value
                << "): " << sentence("%.0f%%, %s", o.theoretical * 100, o.limiter.c_str())
                << (o.warpOccupancy ? sentence(", %.1f%%, %.1f%%", *o.warpOccupancy, o.smsActive.value_or(0))
                                    : std::string(", not measured"))
                << "\n";
        }
    }
    if (result.cancelled) out << "\n(The analysis was cancelled; what is above is incomplete.)\n";
}

void writeAnalysisJson(std::ostream& out, const Trace& trace, const AnalysisResult& result)
{
    std::string s = "{\"verdicts\":[";
    for (size_t v = 0; v < result.verdicts.size(); ++v) {
        const Verdict& verdict = result.verdicts[v];
        s += v > 0 ? ",{" : "{";
        appendJsonField(s, "scope", verdict.scope);
        appendJsonField(s, "limit", limitName(verdict.limit));
        appendJsonField(s, "reason", verdict.reason);
        appendJsonNumber(s, "start", verdict.range.start);
        appendJsonNumber(s, "end", verdict.range.end);
        appendJsonNumber(s, "instances", int64_t(verdict.instances), false);
        s += '}';
    }
    s += "],\"gpus\":[";
    for (size_t g = 0; g < result.gpus.size(); ++g) {
        const GpuTimeBreakdown& b = result.gpus[g];
        s += g > 0 ? ",{" : "{";
        appendJsonNumber(s, "device", b.device.value);
        appendJsonNumber(s, "span", b.span);
        appendJsonNumber(s, "kernels", b.compute);
        appendJsonNumber(s, "communication", b.communication);
        appendJsonNumber(s, "memory", b.memory);
        appendJsonNumber(s, "idle", b.idle);
        appendJsonNumber(s, "idle_cpu_late", b.idleCpuLate);
        appendJsonNumber(s, "idle_synchronizing", b.idleSynchronizing);
        appendJsonNumber(s, "idle_launching", b.idleLaunching, false);
        s += '}';
    }
    s += "],\"findings\":[";
    for (size_t f = 0; f < result.findings.size(); ++f) {
        const Finding& finding = result.findings[f];
        s += f > 0 ? ",{" : "{";
        appendJsonField(s, "rule", finding.rule);
        appendJsonField(s, "severity", severityName(finding.severity));
        appendJsonField(s, "summary", finding.summary);
        appendJsonField(s, "advice", finding.advice);
        appendJsonNumber(s, "evidence_count", int64_t(finding.evidenceCount));
        s += "\"evidence\":[";
        for (size_t e = 0; e < finding.evidence.size(); ++e) {
            const Evidence& ev = finding.evidence[e];
            s += e > 0 ? ",{" : "{";
            appendJsonNumber(s, "start", ev.range.start);
            appendJsonNumber(s, "end", ev.range.end);
            if (ev.event) {
                appendJsonNumber(s, "track", ev.event->track.value);
                appendJsonNumber(s, "index", ev.event->index);
            }
            appendJsonField(s, "label", ev.label, false);
            s += '}';
        }
        s += "]}";
    }
    s += "],\"launches\":[";
    for (size_t k = 0; k < result.launches.size(); ++k) {
        const KernelLaunchStats& l = result.launches[k];
        s += k > 0 ? ",{" : "{";
        appendJsonField(s, "kernel", trace.strings[l.name]);
        appendJsonNumber(s, "count", int64_t(l.count));
        appendJsonNumber(s, "kernel_time", l.kernelTime);
        appendJsonNumber(s, "launch_cost", l.launchCost);
        appendJsonNumber(s, "launch_latency", l.launchLatency);
        appendJsonNumber(s, "shorter_than_launch", int64_t(l.shorterThanLaunch), false);
        s += '}';
    }
    s += "],\"occupancy\":[";
    for (size_t k = 0; k < result.occupancy.size(); ++k) {
        const KernelOccupancy& o = result.occupancy[k];
        s += k > 0 ? ",{" : "{";
        appendJsonField(s, "kernel", trace.strings[o.name]);
        appendJsonNumber(s, "device", o.device.value);
        s += sentence("\"theoretical\":%.4f,", o.theoretical);
        appendJsonField(s, "limiter", o.limiter);
        for (auto [name, value] : {std::pair {"sms_active", o.smsActive},
                 std::pair {"warp_occupancy", o.warpOccupancy}, std::pair {"tensor_active", o.tensorActive}})
            if (value) s += sentence("\"%s\":%.2f,", name, *value);
        appendJsonNumber(s, "launches", int64_t(o.launches), false);
        s += '}';
    }
    s += "],";
    s += result.cancelled ? "\"cancelled\":true}\n" : "\"cancelled\":false}\n";
    out << s;
}

void writeAnalysisCsv(std::ostream& out, const AnalysisResult& result)
{
    std::string s = "Rule,Severity,Summary,Advice,Start (ns),End (ns),Evidence\n";
    auto row = [&s](std::string_view rule, std::string_view severity, std::string_view summary,
                   std::string_view advice, const TimeRange& range, std::string_view label) {
        appendCsvField(s, rule);
        s += ',';
        appendCsvField(s, severity);
        s += ',';
        appendCsvField(s, summary);
        s += ',';
        appendCsvField(s, advice);
        s += ',' + std::to_string(range.start) + ',' + std::to_string(range.end) + ',';
        appendCsvField(s, label);
        s += '\n';
    };
    for (const Verdict& v : result.verdicts)
        row("verdict", limitName(v.limit), v.scope, v.reason, v.range, "");
    for (const Finding& f : result.findings) {
        if (f.evidence.empty()) row(f.rule, severityName(f.severity), f.summary, f.advice, {}, "");
        for (const Evidence& ev : f.evidence)
            row(f.rule, severityName(f.severity), f.summary, f.advice, ev.range, ev.label);
    }
    out << s;
}

} // namespace sightline::cli
