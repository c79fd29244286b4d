// One GPU's PM sampling session (CUPTI PM sampling, CUDA 12.6+): configures the metric set
// (each metric in the first of its forms the chip accepts, metric_sets.h; dropping metrics the
// chip refuses in every form, and series until the rest fits one pass), starts sampling at a
// fixed GPU time interval, and decodes the samples completed since the last decode into one of
// a few counter data images of `maxSamples` samples each. Evaluating an image's samples into
// metric values empties it for reuse, and may run on another thread while the next decode goes
// on (decode_pipeline.h), so memory stays flat however long the run; decode often enough that
// the hardware buffer never fills (the sampler does so every 300 sampling intervals, 2 to
// 50 ms).
//
// Errors come back as sentences saying which device, why, and what to do; the common refusals
// (counters restricted to administrators, a device another profiler holds, unsupported
// hardware or a sandbox) get their own wording.
#pragma once

#include "collector/sampler/gpu_libraries.h"
#include "collector/sampler/metric_sets.h"
#include "model/common/result.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace sightline::sampler {

// One sample as CUPTI gives it: GPU timestamps (the cuptiGetTimestamp domain) and the raw
// value of each of the set's metrics.
struct RawSample
{
    uint64_t start = 0;
    uint64_t end = 0;
    std::vector<double> values;
};

struct DecodeResult
{
    bool overflow = false; // the hardware buffer overflowed: samples were lost
    bool more = false; // the counter data image filled before the hardware buffer emptied
    bool mustRestart = false; // the hardware buffer overflowed so far that the session stopped
    int64_t decodeNs = 0; // time spent decoding (for tracing)
};

class PmSession
{
public:
    // `threads`: how many threads evaluate decoded samples.
    PmSession(const Cupti& cupti, int device, const MetricSet& wanted, unsigned threads = 1);
    ~PmSession();
    PmSession(const PmSession&) = delete;
    PmSession& operator=(const PmSession&) = delete;

    // `images` counter data images of `maxSamples` samples each; `hardwareBufferBytes`: the buffer
    // the GPU writes raw samples into until they are decoded.
    Status start(uint64_t intervalNs, size_t maxSamples, size_t images = 1,
        size_t hardwareBufferBytes = kDefaultHardwareBufferBytes);
    static constexpr size_t kDefaultHardwareBufferBytes = 256u << 20;
    // After DecodeResult::mustRestart: sampling again with the same configuration.
    Status restart();
    // Decodes the samples completed since the last decode into counter data image `image`
    // (one not decoded into since its last evaluate) and appends their timestamps to `out`,
    // each with room for its values.
    Result<DecodeResult> decode(size_t image, std::vector<RawSample>& out);
    // Fills in the values of the samples decoded into `image`, then empties the image for the
    // next decode; returns the nanoseconds it took. May run on another thread than decode(),
    // on another image, but not during start(), restart() or stop().
    Result<int64_t> evaluate(size_t image, std::span<RawSample> samples);
    // Stops sampling; decode() then returns what remains. The destructor releases the GPU.
    void stop();

    const MetricSet& metricSet() const { return m_set; } // what is sampled (after start)
    const std::string& chip() const { return m_chip; }
    size_t counterDataBytes() const { return m_emptyCounterData.size(); } // of one image
    const std::vector<std::string>& refusedMetrics() const { return m_refused; }

private:
    Status configure();
    CUpti_Profiler_Host_Object* newHost(const std::vector<std::string>& metrics) const;
    bool hostAccepts(const std::vector<std::string>& metrics);
    void release();
    void releaseHost();
    Status failure(const std::string& step, CUptiResult result) const;

    const Cupti& m_cupti;
    int m_device;
    MetricSet m_set;
    std::string m_chip;
    std::vector<std::string> m_refused;
    std::vector<const char*> m_names; // m_set.metrics as C strings
    std::vector<uint8_t> m_availability, m_config, m_emptyCounterData;
    std::vector<std::vector<uint8_t>> m_images; // counter data images, each as decode left it
    CUpti_Profiler_Host_Object* m_host = nullptr;
    std::vector<CUpti_Profiler_Host_Object*> m_evaluators; // more hosts, for evaluating in parallel
    unsigned m_threads = 1;
    CUpti_PmSampling_Object* m_sampling = nullptr;
    bool m_started = false;
    uint64_t m_intervalNs = 0;
    size_t m_maxSamples = 0;
    size_t m_hardwareBufferBytes = kDefaultHardwareBufferBytes;
};

} // namespace sightline::sampler
