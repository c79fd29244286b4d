// Nsight Systems' CUDA API rules: copies from pageable memory that were meant to be
// asynchronous, synchronous copies and memsets, and synchronization calls that block the CPU.
// A copy or memset is asynchronous when the call that launched it is an ...Async call; one
// whose launching call the report lacks is not classified (the synchronous rules say how many).
// Sightline adds pageable_copies: every copy from or to pageable memory, whatever its call.
#include "model/analysis/finding_text.h"
#include "model/analysis/rules/rules.h"
#include "model/core/enums.h"
#include "model/text/time_text.h"

namespace sightline {

namespace {

struct MemoryOperation
{
    EventRef ref;
    const MemoryOp* op = nullptr;
    uint64_t bytes = 0;
    TimeRange range;
    std::string_view api; // empty when the launching call is unknown
};

// Every copy or memset (by `kind`) starting in the scope, with its launching call's name.
std::vector<MemoryOperation> memoryOperations(const AnalysisContext& context, MemoryOpKind kind)
{
    std::vector<MemoryOperation> out;
    const Trace& trace = context.trace;
    for (TrackId id : context.tracksOf(TrackKind::Memory)) {
        const Track& track = trace.track(id);
        for (uint32_t i = 0; i < track.size(); ++i) {
            if (!context.inScope(track.events.start[i])) continue;
            const MemoryOp& op = trace.memoryOps[track.events.detail[i]];
            if (op.kind != kind) continue;
            MemoryOperation m {{id, i}, &op, uint64_t(track.events.value[i]),
                {track.events.start[i], track.events.end[i]}, {}};
            if (const std::optional<EventRef> call = context.launchingCall(m.ref))
                m.api = context.text(trace.track(call->track).events.name[call->index]);
            out.push_back(m);
        }
    }
    return out;
}

bool usesPageable(const MemoryOp& op)
{
    return op.kind == MemoryOpKind::Memcpy
        && (op.srcKind == MemoryKind::Pageable || op.dstKind == MemoryKind::Pageable);
}

// "cudaMemcpyAsync HtoD 64.00 MiB, Pageable to Device", for the kept evidence only.
EvidenceLabel operationLabel(const AnalysisContext& context)
{
    return [&context](const EvidenceCandidate& e) {
        const Trace& trace = context.trace;
        const Track& track = trace.track(e.event.track);
        const MemoryOp& op = trace.memoryOps[track.events.detail[e.event.index]];
        const uint64_t bytes = uint64_t(track.events.value[e.event.index]);
        const std::optional<EventRef> call = context.launchingCall(e.event);
        std::string text = call ? std::string(context.text(trace.track(call->track).events.name[call->index]))
                                : std::string("(launching call unknown)");
        if (op.kind == MemoryOpKind::Memcpy)
            return text
                + sentence(" %s %s, %s to %s", std::string(shortLabel(op.copyKind)).c_str(),
                    formatBytes(bytes).c_str(), std::string(label(op.srcKind)).c_str(),
                    std::string(label(op.dstKind)).c_str());
        return text
            + sentence(
                " %s of %s memory", formatBytes(bytes).c_str(), std::string(label(op.srcKind)).c_str());
    };
}

std::vector<EvidenceCandidate> evidenceOf(const std::vector<MemoryOperation>& operations, Duration& gpuTime)
{
    std::vector<EvidenceCandidate> evidence;
    evidence.reserve(operations.size());
    gpuTime = 0;
    for (const MemoryOperation& m : operations) {
        evidence.push_back({m.range, m.ref, true});
        gpuTime += m.range.duration();
    }
    return evidence;
}

size_t unclassified(const std::vector<MemoryOperation>& operations)
{
    size_t count = 0;
    for (const MemoryOperation& m : operations)
        count += m.api.empty() ? 1 : 0;
    return count;
}

std::string unclassifiedNote(size_t count, const char* what)
{
    return count == 0
        ? std::string()
        : sentence(" (%zu more %s have no launching call in the report and are not classified)", count, what);
}

} // namespace

void ruleCudaMemcpyAsync(
    const AnalysisContext& context, const AnalysisResult& /*facts*/, std::vector<Finding>& findings)
{
    const std::vector<MemoryOperation> copies = memoryOperations(context, MemoryOpKind::Memcpy);
    std::vector<MemoryOperation> found;
    Duration allCopyTime = 0;
    for (const MemoryOperation& m : copies) {
        allCopyTime += m.range.duration();
        if (!m.api.empty() && isAsyncApi(m.api) && usesPageable(*m.op)) found.push_back(m);
    }
    if (found.empty()) return;
    Finding finding {"cuda_memcpy_async", Severity::Warning, {}, {}, {}, 0};
    Duration gpuTime = 0;
    std::vector<EvidenceCandidate> evidence = evidenceOf(found, gpuTime);
    finding.summary
        = sentence("%s used pageable host memory, %s on the GPU (%.1f%% of all copy "
                   "time): the driver stages them through a pinned buffer, so they block the calling "
                   "thread and overlap with nothing.",
            counted(found.size(), "asynchronous copy", "asynchronous copies").c_str(),
            formatDuration(gpuTime).c_str(), percentOf(gpuTime, allCopyTime));
    finding.advice
        = "Allocate these host buffers pinned (cudaMallocHost or cudaHostAlloc; pin_memory=True in "
          "PyTorch's DataLoader) so the copies run asynchronously.";
    setEvidence(finding, std::move(evidence), context.options.evidenceLimit, operationLabel(context));
    findings.push_back(std::move(finding));
}

void ruleCudaMemcpySync(
    const AnalysisContext& context, const AnalysisResult& /*facts*/, std::vector<Finding>& findings)
{
    const std::vector<MemoryOperation> copies = memoryOperations(context, MemoryOpKind::Memcpy);
    std::vector<MemoryOperation> found;
    size_t pageable = 0;
    for (const MemoryOperation& m : copies) {
        if (m.api.empty() || isAsyncApi(m.api)) continue;
        found.push_back(m);
        pageable += usesPageable(*m.op) ? 1 : 0;
    }
    if (found.empty()) return;
    Finding finding {"cuda_memcpy_sync", Severity::Warning, {}, {}, {}, 0};
    Duration gpuTime = 0;
    std::vector<EvidenceCandidate> evidence = evidenceOf(found, gpuTime);
    finding.summary = sentence("%s (%zu of them from or to pageable memory) took %s on the GPU, each "
                               "blocking the calling thread until it was done%s.",
        counted(found.size(), "synchronous copy", "synchronous copies").c_str(), pageable,
        formatDuration(gpuTime).c_str(), unclassifiedNote(unclassified(copies), "copies").c_str());
    finding.advice
        = "Copy with cudaMemcpyAsync on a stream from pinned host memory, and synchronize only where the "
          "host needs the data.";
    setEvidence(finding, std::move(evidence), context.options.evidenceLimit, operationLabel(context));
    findings.push_back(std::move(finding));
}

void rulePageableCopies(
    const AnalysisContext& context, const AnalysisResult& /*facts*/, std::vector<Finding>& findings)
{
    std::vector<MemoryOperation> found;
    uint64_t pageableBytes = 0, pinnedBytes = 0;
    Duration pageableTime = 0, pinnedTime = 0;
    for (const MemoryOperation& m : memoryOperations(context, MemoryOpKind::Memcpy)) {
        const bool hostSide = m.op->copyKind == CopyKind::HtoD || m.op->copyKind == CopyKind::DtoH;
        if (usesPageable(*m.op)) {
            found.push_back(m);
            pageableBytes += m.bytes;
            pageableTime += m.range.duration();
        } else if (hostSide) {
            pinnedBytes += m.bytes;
            pinnedTime += m.range.duration();
        }
    }
    if (found.empty()) return;
    Finding finding {"pageable_copies", Severity::Warning, {}, {}, {}, 0};
    Duration gpuTime = 0;
    std::vector<EvidenceCandidate> evidence = evidenceOf(found, gpuTime);
    const std::string pinned = pinnedTime > 0
        ? sentence(", against %s for the copies from and to pinned memory",
            formatThroughput(pinnedBytes, pinnedTime).c_str())
        : std::string();
    finding.summary = sentence("%s moved %s from or to pageable host memory in %s on the GPU, at %s%s.",
        counted(found.size(), "copy", "copies").c_str(), formatBytes(pageableBytes).c_str(),
        formatDuration(pageableTime).c_str(), formatThroughput(pageableBytes, pageableTime).c_str(),
        pinned.c_str());
    finding.advice
        = "Pin the host buffers (cudaMallocHost or cudaHostRegister; pin_memory=True in PyTorch): pinned "
          "copies run at the link's full speed and can overlap with kernels.";
    setEvidence(finding, std::move(evidence), context.options.evidenceLimit, operationLabel(context));
    findings.push_back(std::move(finding));
}

void ruleCudaMemsetSync(
    const AnalysisContext& context, const AnalysisResult& /*facts*/, std::vector<Finding>& findings)
{
    const std::vector<MemoryOperation> memsets = memoryOperations(context, MemoryOpKind::Memset);
    std::vector<MemoryOperation> found;
    for (const MemoryOperation& m : memsets)
        if (!m.api.empty() && !isAsyncApi(m.api)) found.push_back(m);
    if (found.empty()) return;
    Finding finding {"cuda_memset_sync", Severity::Warning, {}, {}, {}, 0};
    Duration gpuTime = 0;
    std::vector<EvidenceCandidate> evidence = evidenceOf(found, gpuTime);
    finding.summary = sentence("%s took %s on the GPU, each blocking the calling thread%s.",
        counted(found.size(), "synchronous memset", "synchronous memsets").c_str(),
        formatDuration(gpuTime).c_str(), unclassifiedNote(unclassified(memsets), "memsets").c_str());
    finding.advice = "Use cudaMemsetAsync on the stream that uses the memory.";
    setEvidence(finding, std::move(evidence), context.options.evidenceLimit, operationLabel(context));
    findings.push_back(std::move(finding));
}

void ruleCudaApiSync(
    const AnalysisContext& context, const AnalysisResult& /*facts*/, std::vector<Finding>& findings)
{
    const Trace& trace = context.trace;
    std::vector<EvidenceCandidate> evidence;
    Duration blocked = 0;
    for (TrackId id : context.tracksOf(TrackKind::CudaApi)) {
        const Track& track = trace.track(id);
        if (track.laneCount() == 0) continue;
        // Lane 0 only: a driver call nested in a runtime synchronization call is the same wait.
        const IndexRange calls = trace.eventsStartingIn(id, 0, context.scope);
        for (uint32_t i = calls.begin; i < calls.end; ++i) {
            const Duration length = track.duration(i);
            if (context.callRole(id, i) != CallRole::Synchronization
                || length < context.options.syncThreshold)
                continue;
            blocked += length;
            evidence.push_back({{track.events.start[i], track.events.end[i]}, EventRef {id, i}, true});
        }
    }
    if (evidence.empty()) return;
    Finding finding {"cuda_api_sync", Severity::Warning, {}, {}, {}, 0};
    const size_t count = evidence.size();
    setEvidence(finding, std::move(evidence), context.options.evidenceLimit, [&](const EvidenceCandidate& e) {
        return std::string(context.text(trace.track(e.event.track).events.name[e.event.index]));
    });
    finding.summary
        = sentence("%zu synchronization %s blocked their threads for %s (%.1f%% of the %s analyzed), "
                   "the longest %s.",
            count, count == 1 ? "call" : "calls", formatDuration(blocked).c_str(),
            percentOf(blocked, context.scope.duration()), formatDuration(context.scope.duration()).c_str(),
            formatDuration(finding.evidence.front().range.duration()).c_str());
    finding.advice = "Synchronize only where the host needs a result; order work between streams with events "
                     "(cudaEventRecord and cudaStreamWaitEvent) instead of waiting on the CPU.";
    findings.push_back(std::move(finding));
}

} // namespace sightline
