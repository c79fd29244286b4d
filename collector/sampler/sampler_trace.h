// SIGHTLINE_SAMPLER_TRACE=DIR: the sampler writes DIR/sampler-trace-N.txt for device N, a line a
// decode and a line a batch evaluated, and every raw sample, for diagnosing lost samples and
// what decoding costs. Written from the decoding and the evaluating thread alike (one fprintf a
// line). Lines:
//   I <bytes of one counter data image> <samples it holds> <metrics> <hardware buffer bytes>
//   M <a metric sampled, in the form the chip took>
//   D <monotonic before> <monotonic after> <samples> <more> <overflow> <must restart> <decode ns> <offset>
//   E <monotonic after> <samples> <evaluate ns>
//   S <GPU start> <GPU end> <first value>
#pragma once

#include "collector/sampler/decode_pipeline.h"

#include <cstdio>
#include <string>
#include <vector>

namespace sightline::sampler {

class SamplerTrace
{
public:
    // Opens the trace file where SIGHTLINE_SAMPLER_TRACE names a folder; otherwise does nothing.
    explicit SamplerTrace(int ordinal);
    ~SamplerTrace();
    SamplerTrace(const SamplerTrace&) = delete;
    SamplerTrace& operator=(const SamplerTrace&) = delete;

    void session(size_t imageBytes, size_t imageSamples, const std::vector<std::string>& metrics,
        size_t hardwareBufferBytes);
    void decoded(int64_t before, int64_t after, const DecodedBatch& batch, const DecodeResult& result);
    void evaluated(int64_t after, const DecodedBatch& batch, int64_t evaluateNs);

private:
    std::FILE* m_file = nullptr;
};

} // namespace sightline::sampler
