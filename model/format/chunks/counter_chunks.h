// Counter series in a .rep file (schema: CounterDefinitions and CounterBatch in report.proto).
// The writer stores the timelines and series once (not the derived CPU utilization ones, which
// readers make again: model/derived/cpu_utilization_series.h), then the samples in batches: a timeline's
// starts as differences, and each series' values as differences of resolution steps, so a
// regular 10 kHz timeline and a slowly changing series cost about a byte per sample before
// compression and little after it.
//
// The decoder trusts nothing: every claimed sample count is bounded by the bytes of the
// batches present before it is allocated, batches must tile each timeline exactly, starts must
// increase strictly and end before the timeline's end, and a series' source must be one a
// report stores. Batches fill disjoint slices, so
// several threads may decode at once. A report cut short keeps each timeline's prefix.
#pragma once

#include "model/common/result.h"
#include "model/format/report.pb.h"
#include "model/trace/trace.h"

#include <mutex>
#include <string>
#include <vector>

namespace sightline::rep {

struct CounterBatchSpec
{
    uint32_t timeline = 0;
    uint64_t first = 0;
    uint32_t count = 0;
};

void encodeCounterDefinitions(const Trace& trace, CounterDefinitions& out);
std::vector<CounterBatchSpec> planCounterBatches(const Trace& trace, uint32_t samplesPerBatch);
void encodeCounterBatch(const Trace& trace, const CounterBatchSpec& spec, CounterBatch& out);

class CounterDecoder
{
public:
    CounterDecoder(Trace& trace, std::string path);

    // Sizes the timelines and series from the definitions. In a `complete` report they may claim
    // no more samples than `batchBytes` (the raw bytes of every counter batch in the file) can
    // hold; in one cut short, each timeline gets only the room those bytes can fill.
    Status define(
        const CounterDefinitions& definitions, uint64_t batchBytes, bool complete, uint64_t frameOffset);
    // Decodes one batch into its slice. Thread-safe for distinct batches.
    Status decode(const CounterBatch& batch, uint64_t frameOffset);
    // Checks that the batches tiled every timeline and that its starts increase. With
    // `complete` false (a cut report) each timeline keeps its received prefix instead, and the
    // number of samples lost is returned.
    Result<uint64_t> finish(bool complete);

private:
    Status damaged(uint64_t offset, const std::string& what) const;

    Trace& m_trace;
    std::string m_path;
    bool m_defined = false;
    std::vector<uint64_t> m_claimed; // per timeline, the samples the definitions claim
    std::vector<std::vector<uint32_t>> m_seriesOf; // per timeline, its series in order
    std::mutex m_mutex;
    std::vector<std::vector<std::pair<uint64_t, uint64_t>>> m_received; // per timeline: [first, end)
};

} // namespace sightline::rep
