// Theoretical occupancy per kernel name, from its launch configuration and its device's limits
// (occupancy.h), and the rule that flags kernel names below the threshold. A name launched
// with several configurations is judged by the one it was launched with most. With GPU metrics,
// each name also gets the SMs Active, Warp Occupancy and Tensor Active measured while it ran.
#include "model/analysis/finding_text.h"
#include "model/analysis/occupancy.h"
#include "model/analysis/rules/rules.h"
#include "model/stats/counter_stats.h"
#include "model/text/time_text.h"

#include <algorithm>
#include <map>

namespace sightline {

namespace {

struct NameOnDevice
{
    uint32_t name = 0;
    uint32_t device = 0;
    friend auto operator<=>(const NameOnDevice&, const NameOnDevice&) = default;
};

struct Launches
{
    size_t count = 0;
    EventRef longest;
    Duration longestLength = -1;
};

} // namespace

std::vector<KernelOccupancy> occupancyByKernel(const AnalysisContext& context)
{
    const Trace& trace = context.trace;
    // Launches per (device, descriptor), then the most used descriptor per (name, device).
    std::map<uint32_t, std::vector<size_t>> byDescriptor; // device -> launches per descriptor
    for (TrackId id : context.tracksOf(TrackKind::Kernels)) {
        const Track& track = trace.track(id);
        std::vector<size_t>& counts = byDescriptor[track.key.device.value];
        counts.resize(trace.kernelLaunches.size(), 0);
        for (uint32_t lane = 0; lane < track.laneCount(); ++lane) {
            const IndexRange events = trace.eventsStartingIn(id, lane, context.scope);
            for (uint32_t i = events.begin; i < events.end; ++i)
                if (track.events.detail[i] < counts.size()) ++counts[track.events.detail[i]];
        }
    }
    std::map<NameOnDevice, std::pair<size_t, uint32_t>> chosen; // -> (launches of all configs, descriptor)
    std::map<NameOnDevice, size_t> mostOfOne;
    for (const auto& [device, counts] : byDescriptor) {
        for (uint32_t descriptor = 0; descriptor < counts.size(); ++descriptor) {
            const size_t count = counts[descriptor];
            if (count == 0) continue;
            const NameOnDevice name {trace.kernelLaunches[descriptor].shortName.value, device};
            auto& entry = chosen[name];
            entry.first += count;
            if (count > mostOfOne[name]) {
                mostOfOne[name] = count;
                entry.second = descriptor;
            }
        }
    }
    const std::map<StringId, KernelMetricMeans> measured
        = kernelMetricMeans(trace, context.options.range, KernelNaming::Short);
    std::vector<KernelOccupancy> out;
    for (const auto& [name, entry] : chosen) {
        const Gpu* gpu = trace.findGpu(DeviceId(name.device));
        if (!gpu) continue;
        const std::optional<OccupancyResult> result
            = theoreticalOccupancy(trace.kernelLaunches[entry.second], *gpu);
        if (!result) continue;
        KernelOccupancy k {StringId(name.name), DeviceId(name.device), result->theoretical,
            std::string(result->limiter), entry.first, {}, {}, {}};
        if (const auto found = measured.find(StringId(name.name)); found != measured.end()) {
            k.smsActive = found->second.smsActive;
            k.warpOccupancy = found->second.warpOccupancy;
            k.tensorActive = found->second.tensorActive;
        }
        out.push_back(std::move(k));
    }
    std::sort(out.begin(), out.end(), [&](const KernelOccupancy& a, const KernelOccupancy& b) {
        return a.launches != b.launches ? a.launches > b.launches
                                        : context.text(a.name) < context.text(b.name);
    });
    return out;
}

void ruleLowOccupancy(
    const AnalysisContext& context, const AnalysisResult& facts, std::vector<Finding>& findings)
{
    const Trace& trace = context.trace;
    std::map<NameOnDevice, const KernelOccupancy*> low;
    // analyze() computes the occupancy figures before the rules run.
    for (const KernelOccupancy& k : facts.occupancy)
        if (k.theoretical * 100 < context.options.occupancyThreshold)
            low[{k.name.value, k.device.value}] = &k;
    if (low.empty()) return;
    // The longest instance of each flagged name is its evidence.
    std::map<NameOnDevice, Launches> instances;
    for (TrackId id : context.tracksOf(TrackKind::Kernels)) {
        const Track& track = trace.track(id);
        // Whether each descriptor's name is flagged on this track's device, looked up once.
        std::vector<int8_t> flagged(trace.kernelLaunches.size(), -1);
        for (uint32_t i = 0; i < track.size(); ++i) {
            if (!context.inScope(track.events.start[i])) continue;
            const uint32_t descriptor = track.events.detail[i];
            const NameOnDevice name {
                trace.kernelLaunches[descriptor].shortName.value, track.key.device.value};
            if (flagged[descriptor] < 0) flagged[descriptor] = low.contains(name) ? 1 : 0;
            if (!flagged[descriptor]) continue;
            Launches& l = instances[name];
            ++l.count;
            if (track.duration(i) > l.longestLength) {
                l.longestLength = track.duration(i);
                l.longest = {id, i};
            }
        }
    }
    std::vector<Evidence> evidence;
    for (const auto& [name, launches] : instances) {
        const KernelOccupancy& k = *low.at(name);
        const Track& track = trace.track(launches.longest.track);
        evidence.push_back({launches.longest,
            {track.events.start[launches.longest.index], track.events.end[launches.longest.index]},
            sentence("%s: %.0f%% theoretical occupancy, limited by %s (%zu launches)%s",
                std::string(context.text(k.name)).c_str(), k.theoretical * 100, k.limiter.c_str(), k.launches,
                k.warpOccupancy ? sentence("; measured warp occupancy %.1f%%", *k.warpOccupancy).c_str()
                                : "")});
    }
    Finding finding {"low_occupancy", Severity::Info, {}, {}, {}, 0};
    const size_t count = evidence.size();
    setEvidence(finding, std::move(evidence), context.options.evidenceLimit);
    finding.summary = sentence("%s can keep less than %.0f%% of the GPU's warps resident, by their launch "
                               "configuration; the longest: %s.",
        counted(count, "kernel name", "kernel names").c_str(), context.options.occupancyThreshold,
        finding.evidence.front().label.c_str());
    finding.advice = "Where these kernels matter, use fewer registers per thread (__launch_bounds__ or "
                     "-maxrregcount), less shared memory per block, or larger blocks.";
    findings.push_back(std::move(finding));
}

} // namespace sightline
