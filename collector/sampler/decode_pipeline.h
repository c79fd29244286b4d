// Decoding PM samples and evaluating them, on two threads. CUPTI's decode of one device's
// hardware buffer is the step that must keep up with the GPU, and only one thread can do it.
// With evaluation (turning a decoded counter data image into metric values: about 8 us a sample
// on four threads, 25 us on one, H200 host) and the reset of the image for reuse (a copy of tens
// of MB) on the same thread, the loop took 96 us of every 100 us sampling interval at 10 kHz
// under a busy GPU, and a late decode soon let the hardware buffer overflow. So the decoding
// thread only decodes: it takes a free counter data image, decodes into it and submits it; a
// worker thread evaluates the submitted images in order, hands their samples on, resets each
// image and gives it back. Decoding got a little slower beside the worker (68 us a sample
// against 61 inline), but the decoding thread's share of each interval fell from 96 us to 68.
// metric_sets.h says how the set's metrics made decoding cheaper still.
//
// The pipeline knows nothing of CUPTI: what evaluating and handing on mean are functions, so
// unit tests drive it without a GPU.
#pragma once

#include "collector/sampler/pm_session.h"
#include "model/common/result.h"

#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace sightline::sampler {

// One decoded counter data image: its samples' timestamps, with room for their values.
struct DecodedBatch
{
    size_t image = 0;
    std::vector<RawSample> samples;
    int64_t gpuToMonotonic = 0; // the clock offset read right after decoding
    int64_t latest = 0; // no sample may end after this (monotonic), the time of the decode
};

class DecodePipeline
{
public:
    // Fills in the batch's values from its image and resets the image for reuse.
    using Evaluate = std::function<Status(DecodedBatch&)>;
    // Receives each evaluated batch, in the order submitted.
    using Deliver = std::function<void(DecodedBatch&)>;

    DecodePipeline(size_t images, Evaluate evaluate, Deliver deliver);
    ~DecodePipeline(); // delivers what was submitted, then stops the worker
    DecodePipeline(const DecodePipeline&) = delete;
    DecodePipeline& operator=(const DecodePipeline&) = delete;

    // A free image's index; waits while every image is being evaluated.
    size_t acquire();
    // Hands a decoded image to the worker.
    void submit(DecodedBatch batch);
    // Returns once every submitted batch has been delivered and its image is free again.
    void drain();
    // The first evaluation failure, empty while there was none. A failed batch is not
    // delivered; its image is still given back.
    std::string failure() const;

private:
    void work();

    Evaluate m_evaluate;
    Deliver m_deliver;
    mutable std::mutex m_mutex;
    std::condition_variable m_changed;
    std::vector<size_t> m_free;
    std::deque<DecodedBatch> m_queue;
    size_t m_busy = 0; // taken from the queue, not yet given back
    bool m_stopping = false;
    std::string m_failure;
    std::thread m_worker; // last: starts once everything above exists
};

} // namespace sightline::sampler
