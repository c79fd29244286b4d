#include "collector/sampler/sampler_trace.h"

#include <cstdlib>
#include <string>

namespace sightline::sampler {

SamplerTrace::SamplerTrace(int ordinal)
{
    const char* dir = std::getenv("SIGHTLINE_SAMPLER_TRACE");
    if (dir && *dir)
        m_file = std::fopen(
            (std::string(dir) + "/sampler-trace-" + std::to_string(ordinal) + ".txt").c_str(), "w");
}

SamplerTrace::~SamplerTrace()
{
    if (m_file) std::fclose(m_file);
}

void SamplerTrace::session(size_t imageBytes, size_t imageSamples, const std::vector<std::string>& metrics,
    size_t hardwareBufferBytes)
{
    if (!m_file) return;
    std::fprintf(
        m_file, "I %zu %zu %zu %zu\n", imageBytes, imageSamples, metrics.size(), hardwareBufferBytes);
    for (const std::string& metric : metrics)
        std::fprintf(m_file, "M %s\n", metric.c_str());
}

void SamplerTrace::decoded(
    int64_t before, int64_t after, const DecodedBatch& batch, const DecodeResult& result)
{
    if (!m_file) return;
    std::fprintf(m_file, "D %lld %lld %zu %d %d %d %lld %lld\n", static_cast<long long>(before),
        static_cast<long long>(after), batch.samples.size(), int(result.more), int(result.overflow),
        int(result.mustRestart), static_cast<long long>(result.decodeNs),
        static_cast<long long>(batch.gpuToMonotonic));
}

void SamplerTrace::evaluated(int64_t after, const DecodedBatch& batch, int64_t evaluateNs)
{
    if (!m_file) return;
    std::fprintf(m_file, "E %lld %zu %lld\n", static_cast<long long>(after), batch.samples.size(),
        static_cast<long long>(evaluateNs));
    for (const RawSample& sample : batch.samples)
        std::fprintf(m_file, "S %llu %llu %.1f\n", static_cast<unsigned long long>(sample.start),
            static_cast<unsigned long long>(sample.end), sample.values.empty() ? 0.0 : sample.values[0]);
}

} // namespace sightline::sampler
