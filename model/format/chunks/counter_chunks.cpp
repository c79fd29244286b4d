#include "model/format/chunks/counter_chunks.h"

#include "model/derived/cpu_utilization_series.h"
#include "model/format/container.h"

#include <algorithm>
#include <cmath>

namespace sightline::rep {

namespace {

// The sources a report stores; derived series (CPU utilization) are made again on reading.
bool storedSource(uint32_t source)
{
    return source == uint32_t(CounterSource::GpuMetrics) || source == uint32_t(CounterSource::GpuMemory)
        || source == uint32_t(CounterSource::Process);
}

} // namespace

void encodeCounterDefinitions(const Trace& trace, CounterDefinitions& out)
{
    for (size_t i = 0; i < storedCounterTimelineCount(trace); ++i) {
        auto* t = out.add_timelines();
        t->set_samples(trace.counterTimelines[i].size());
        t->set_end(trace.counterTimelines[i].end);
        if (!trace.counterTimelines[i].starts.empty())
            t->set_first_start(trace.counterTimelines[i].starts.front());
    }
    for (size_t i = 0; i < storedCounterSeriesCount(trace); ++i) {
        const CounterSeries& series = trace.counterSeries[i];
        auto* s = out.add_series();
        s->set_timeline(series.timeline);
        s->set_source(uint32_t(series.source));
        s->set_device(series.device.value);
        s->set_pid(series.pid.value);
        s->set_name(series.name);
        s->set_unit(series.unit);
        s->set_description(series.description);
        s->set_resolution(series.resolution);
    }
}

std::vector<CounterBatchSpec> planCounterBatches(const Trace& trace, uint32_t samplesPerBatch)
{
    std::vector<CounterBatchSpec> batches;
    for (uint32_t t = 0; t < storedCounterTimelineCount(trace); ++t) {
        const uint64_t samples = trace.counterTimelines[t].size();
        for (uint64_t first = 0; first < samples; first += samplesPerBatch)
            batches.push_back({t, first, uint32_t(std::min<uint64_t>(samplesPerBatch, samples - first))});
    }
    return batches;
}

void encodeCounterBatch(const Trace& trace, const CounterBatchSpec& spec, CounterBatch& out)
{
    const CounterTimeline& timeline = trace.counterTimelines[spec.timeline];
    const uint64_t end = spec.first + spec.count;
    out.set_timeline(spec.timeline);
    out.set_first_index(spec.first);
    out.set_count(spec.count);
    auto* starts = out.mutable_start_delta();
    starts->Reserve(int(spec.count));
    Timestamp previous = 0;
    for (uint64_t i = spec.first; i < end; ++i) {
        starts->AddAlreadyReserved(timeline.starts[i] - previous);
        previous = timeline.starts[i];
    }
    for (size_t s = 0; s < storedCounterSeriesCount(trace); ++s) {
        const CounterSeries& series = trace.counterSeries[s];
        if (series.timeline != spec.timeline) continue;
        auto* values = out.add_series();
        int64_t previousSteps = 0;
        for (uint64_t i = spec.first; i < end; ++i) {
            const double value = series.values[i];
            if (std::isnan(value)) {
                values->add_unknown(uint32_t(i - spec.first));
                continue;
            }
            const auto steps = int64_t(std::llround(value / series.resolution));
            values->add_steps_delta(steps - previousSteps);
            previousSteps = steps;
        }
    }
}

CounterDecoder::CounterDecoder(Trace& trace, std::string path)
    : m_trace(trace)
    , m_path(std::move(path))
{ }

Status CounterDecoder::damaged(uint64_t offset, const std::string& what) const
{
    return Status::failure(damagedReport(m_path, offset, what));
}

Status CounterDecoder::define(
    const CounterDefinitions& definitions, uint64_t batchBytes, bool complete, uint64_t frameOffset)
{
    if (m_defined) return damaged(frameOffset, "it defines its counter series twice");
    const size_t timelines = size_t(definitions.timelines_size());
    // Each sample takes at least a byte for its start and a byte per series for its value.
    std::vector<uint64_t> bytesPerSample(timelines, 1);
    for (const auto& s : definitions.series()) {
        if (s.timeline() >= timelines)
            return damaged(frameOffset, "a counter series refers to a missing timeline");
        if (!(s.resolution() > 0) || !std::isfinite(s.resolution()))
            return damaged(frameOffset, "a counter series has no valid resolution");
        if (!storedSource(s.source()))
            return damaged(frameOffset,
                "a counter series claims a source a report never stores (CPU utilization is derived on "
                "reading)");
        ++bytesPerSample[s.timeline()];
    }
    // A complete report's claims must fit the batches' bytes. A cut one's batches hold less than
    // it claims: each timeline gets room for what the bytes left can hold, and batches past it
    // count as lost.
    uint64_t budget = batchBytes;
    m_claimed.assign(timelines, 0);
    m_seriesOf.assign(timelines, {});
    m_received.assign(timelines, {});
    m_trace.counterTimelines.resize(timelines);
    for (size_t t = 0; t < timelines; ++t) {
        const uint64_t claim = definitions.timelines(int(t)).samples();
        const uint64_t room = budget / bytesPerSample[t];
        if (complete && claim > room)
            return damaged(frameOffset, "its counter series claim more samples than their batches hold");
        m_claimed[t] = claim;
        const uint64_t kept = std::min(claim, room);
        budget -= kept * bytesPerSample[t];
        m_trace.counterTimelines[t].starts.resize(kept);
        m_trace.counterTimelines[t].end = definitions.timelines(int(t)).end();
    }
    for (const auto& s : definitions.series()) {
        CounterSeries series;
        series.timeline = s.timeline();
        series.source = CounterSource(uint8_t(s.source()));
        series.device = DeviceId(s.device());
        series.pid = Pid(s.pid());
        series.name = s.name();
        series.unit = s.unit();
        series.description = s.description();
        series.resolution = s.resolution();
        series.values.resize(m_trace.counterTimelines[s.timeline()].size());
        m_seriesOf[s.timeline()].push_back(uint32_t(m_trace.counterSeries.size()));
        m_trace.counterSeries.push_back(std::move(series));
    }
    m_defined = true;
    return {};
}

Status CounterDecoder::decode(const CounterBatch& batch, uint64_t frameOffset)
{
    if (!m_defined) return damaged(frameOffset, "counter samples come without their definitions");
    if (batch.timeline() >= m_seriesOf.size())
        return damaged(frameOffset, "counter samples refer to a missing timeline");
    CounterTimeline& timeline = m_trace.counterTimelines[batch.timeline()];
    const uint64_t first = batch.first_index(), count = batch.count();
    if (uint64_t(batch.start_delta_size()) != count || first > m_claimed[batch.timeline()]
        || count > m_claimed[batch.timeline()] - first)
        return damaged(frameOffset, "a counter batch lies outside its timeline");
    if (count > timeline.size() - std::min(first, timeline.size())) return {}; // past a cut report's room
    const auto& seriesOf = m_seriesOf[batch.timeline()];
    if (size_t(batch.series_size()) != seriesOf.size())
        return damaged(frameOffset, "a counter batch does not hold every series of its timeline");
    for (int s = 0; s < batch.series_size(); ++s) {
        const CounterValues& values = batch.series(s);
        if (uint64_t(values.steps_delta_size()) + uint64_t(values.unknown_size()) != count)
            return damaged(frameOffset, "a counter batch holds the wrong number of values");
        for (int u = 1; u < values.unknown_size(); ++u)
            if (values.unknown(u) <= values.unknown(u - 1))
                return damaged(frameOffset, "a counter batch lists its unknown samples out of order");
        if (values.unknown_size() > 0 && values.unknown(values.unknown_size() - 1) >= count)
            return damaged(frameOffset, "a counter batch lists an unknown sample outside it");
    }
    // Starts: wrapping arithmetic, so hostile differences cannot overflow; order is checked.
    uint64_t start = 0;
    for (uint64_t i = 0; i < count; ++i) {
        start += uint64_t(batch.start_delta(int(i)));
        timeline.starts[first + i] = Timestamp(start);
        if (i > 0 && timeline.starts[first + i] <= timeline.starts[first + i - 1])
            return damaged(frameOffset, "counter samples are out of time order");
    }
    for (int s = 0; s < batch.series_size(); ++s) {
        const CounterValues& values = batch.series(s);
        CounterSeries& series = m_trace.counterSeries[seriesOf[size_t(s)]];
        uint64_t steps = 0;
        int known = 0, unknown = 0;
        for (uint64_t i = 0; i < count; ++i) {
            if (unknown < values.unknown_size() && values.unknown(unknown) == i) {
                series.values[first + i] = std::nan("");
                ++unknown;
                continue;
            }
            steps += uint64_t(values.steps_delta(known++));
            series.values[first + i] = double(int64_t(steps)) * series.resolution;
        }
    }
    std::lock_guard lock(m_mutex);
    m_received[batch.timeline()].emplace_back(first, first + count);
    return {};
}

Result<uint64_t> CounterDecoder::finish(bool complete)
{
    uint64_t lost = 0;
    for (size_t t = 0; t < m_received.size(); ++t) {
        auto& received = m_received[t];
        std::sort(received.begin(), received.end());
        CounterTimeline& timeline = m_trace.counterTimelines[t];
        // The prefix the batches tile without a hole or an overlap.
        uint64_t covered = 0;
        size_t tiles = 0;
        while (tiles < received.size() && received[tiles].first == covered)
            covered = received[tiles++].second;
        for (uint64_t i = 1; i < covered; ++i)
            if (timeline.starts[i] <= timeline.starts[i - 1])
                return Result<uint64_t>::failure(
                    damagedReport(m_path, 0, "counter samples are out of time order"));
        const bool endsAfterLast = covered == 0 || timeline.end > timeline.starts[covered - 1];
        if (covered == m_claimed[t] && tiles == received.size() && endsAfterLast) continue;
        if (complete)
            return Result<uint64_t>::failure(
                damagedReport(m_path, 0, "its counter batches do not cover their timelines exactly"));
        // Cut short: keep the tiled prefix. Where its last sample ended is not known, so it
        // becomes the end of the one before it.
        if (covered > 0 && (covered < m_claimed[t] || !endsAfterLast)) {
            --covered;
            timeline.end = timeline.starts[covered];
        }
        lost += m_claimed[t] - covered;
        timeline.starts.resize(covered);
        for (uint32_t s : m_seriesOf[t])
            m_trace.counterSeries[s].values.resize(covered);
    }
    return lost;
}

} // namespace sightline::rep
