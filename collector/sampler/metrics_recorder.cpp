#include "collector/sampler/metrics_recorder.h"

#include "collector/spool/gpu_metrics_file.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <deque>
#include <vector>

namespace sightline::sampler {

namespace gm = spool::gpu_metrics;

namespace {

template <class T> void put(std::string& out, T value)
{
    char bytes[sizeof(T)];
    std::memcpy(bytes, &value, sizeof(T));
    out.append(bytes, sizeof(T));
}

void putText(std::string& out, const std::string& text)
{
    out += text;
    out += '\0';
}

} // namespace

MetricsRecorder::~MetricsRecorder()
{
    close();
}

Status MetricsRecorder::open(const std::string& path, uint64_t intervalNs)
{
    m_interval = intervalNs;
    m_file = std::fopen(path.c_str(), "wb");
    if (!m_file)
        return Status::failure(
            "cannot write the GPU metrics file " + path + ": " + std::strerror(errno) + ".");
    std::string header(gm::kMagic);
    put(header, gm::kVersion);
    put(header, uint32_t(0));
    std::fwrite(header.data(), 1, header.size(), m_file);
    return {};
}

void MetricsRecorder::record(uint32_t type, const std::string& payload)
{
    if (!m_file) return;
    std::string bytes;
    put(bytes, type);
    put(bytes, uint32_t(payload.size()));
    bytes += payload;
    std::fwrite(bytes.data(), 1, bytes.size(), m_file);
    std::fflush(m_file);
}

void MetricsRecorder::device(
    int ordinal, const std::string& name, const std::string& uuid, const std::string& chip)
{
    std::string payload;
    put(payload, uint32_t(ordinal));
    putText(payload, name);
    putText(payload, uuid);
    putText(payload, chip);
    record(uint32_t(gm::RecordType::Device), payload);
}

void MetricsRecorder::series(const MetricSet& set)
{
    m_set = set;
    for (const SeriesDefinition& s : set.series) {
        std::string payload;
        put(payload, s.resolution);
        putText(payload, s.name);
        putText(payload, s.unit);
        putText(payload, s.description);
        record(uint32_t(gm::RecordType::Series), payload);
    }
}

void MetricsRecorder::samples(
    std::span<const RawSample> raw, int64_t gpuToMonotonic, int64_t earliest, int64_t latest)
{
    // A sample's end (its trigger) orders it; its start can be stale after the counter data is
    // read, so it never reaches back before the previous sample's end.
    std::vector<Kept> kept;
    std::deque<RawSample> placed; // the pending samples given a place, while `kept` points at them
    for (const RawSample& sample : raw) {
        if (!m_sawFirst) {
            m_sawFirst = true;
            m_lastEnd = sample.end;
            continue;
        }
        if (sample.values.size() < m_set.metrics.size()) {
            ++m_dropped;
            continue;
        }
        if (sample.end <= m_lastEnd) {
            // Its timestamp went back: it waits for the next sample with a good one.
            if (m_pending.size() < kMaxPending)
                m_pending.push_back(sample);
            else
                ++m_dropped;
            continue;
        }
        const int64_t end = int64_t(sample.end) + gpuToMonotonic;
        if (end > latest || end < earliest) {
            ++m_dropped;
            continue;
        }
        placePending(sample.end, kept, placed);
        uint64_t start = sample.start;
        if (start < m_lastEnd || start >= sample.end)
            start = std::max(m_lastEnd, sample.end - std::min(sample.end, m_interval));
        m_lastEnd = sample.end;
        kept.push_back({start, sample.end, &sample.values});
    }
    if (kept.empty()) return;
    const size_t series = m_set.series.size();
    std::string payload;
    put(payload, uint32_t(series));
    put(payload, uint32_t(kept.size()));
    for (const Kept& k : kept) {
        put(payload, int64_t(k.start) + gpuToMonotonic);
        put(payload, int64_t(k.end) + gpuToMonotonic);
    }
    std::vector<double> derived(kept.size() * series);
    std::vector<double> one(series);
    for (size_t i = 0; i < kept.size(); ++i) {
        deriveSeries(m_set, *kept[i].values, int64_t(kept[i].end - kept[i].start), one);
        for (size_t s = 0; s < series; ++s)
            derived[s * kept.size() + i] = one[s];
    }
    for (double value : derived)
        put(payload, value);
    record(uint32_t(gm::RecordType::Samples), payload);
    m_written += kept.size();
}

void MetricsRecorder::placePending(uint64_t nextEnd, std::vector<Kept>& kept, std::deque<RawSample>& placed)
{
    if (m_pending.empty()) return;
    // The pending samples fill the time up to the next good one when their count fits it, one
    // sampling interval each (within half an interval in all): then they are the samples taken
    // meanwhile, whose timestamps alone were wrong. Otherwise nothing says where they belong.
    const uint64_t n = m_pending.size();
    const uint64_t span = nextEnd - m_lastEnd;
    const uint64_t expected = (n + 1) * m_interval;
    const bool fits
        = m_interval > 0 && span + m_interval / 2 >= expected && span <= expected + m_interval / 2;
    if (fits) {
        for (uint64_t i = 0; i < n; ++i) {
            placed.push_back(std::move(m_pending[i]));
            kept.push_back({m_lastEnd + span * i / (n + 1), m_lastEnd + span * (i + 1) / (n + 1),
                &placed.back().values});
        }
        m_lastEnd += span * n / (n + 1);
        m_placed += n;
    } else {
        m_dropped += n;
    }
    m_pending.clear();
}

void MetricsRecorder::restarted()
{
    m_sawFirst = false;
    m_dropped += m_pending.size();
    m_pending.clear();
}

void MetricsRecorder::diagnostic(uint32_t severity, const std::string& sentence)
{
    std::string payload;
    put(payload, severity);
    payload += sentence;
    record(uint32_t(gm::RecordType::Diagnostic), payload);
}

void MetricsRecorder::close()
{
    if (m_file) std::fclose(m_file);
    m_file = nullptr;
}

} // namespace sightline::sampler
