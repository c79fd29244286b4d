#include "trace_compare.h"

namespace sightline::test {

std::string firstDifference(const Trace& a, const Trace& b)
{
    if (!(a.metadata == b.metadata)) return "metadata";
    if (!(a.strings == b.strings)) return "string table";
    if (a.processes != b.processes) return "processes";
    if (a.threads != b.threads) return "threads";
    if (a.gpus != b.gpus) return "gpus";
    if (a.contexts != b.contexts) return "contexts";
    if (a.streams != b.streams) return "streams";
    if (a.domains != b.domains) return "domains";
    if (a.apiResults != b.apiResults) return "API result descriptors";
    if (a.kernelLaunches != b.kernelLaunches) return "kernel launch descriptors";
    if (a.memoryOps != b.memoryOps) return "memory op descriptors";
    if (a.syncOps != b.syncOps) return "sync op descriptors";
    if (a.nvtxAttributes != b.nvtxAttributes) return "NVTX attribute descriptors";
    if (a.diagnostics != b.diagnostics) return "diagnostics";
    if (a.counterTimelines != b.counterTimelines) return "counter timelines";
    if (a.counterSeries != b.counterSeries) return "counter series";
    if (a.memoryUsage != b.memoryUsage) return "memory usage records";
    if (!a.cpu.sameContent(b.cpu)) return "CPU profile";
    if (a.tracks.size() != b.tracks.size()) return "track count";
    for (size_t t = 0; t < a.tracks.size(); ++t) {
        const Track& x = a.tracks[t];
        const Track& y = b.tracks[t];
        const std::string where = "track " + std::to_string(t) + ": ";
        if (x.key != y.key) return where + "key";
        if (x.laneBegin != y.laneBegin) return where + "lanes";
        if (x.nested != y.nested) return where + "nesting";
        if (x.events.start != y.events.start) return where + "starts";
        if (x.events.end != y.events.end) return where + "ends";
        if (x.events.name != y.events.name) return where + "names";
        if (x.events.correlation != y.events.correlation) return where + "correlation ids";
        if (x.events.detail != y.events.detail) return where + "details";
        if (x.events.value != y.events.value) return where + "values";
    }
    return {};
}

} // namespace sightline::test
