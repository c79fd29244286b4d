// The GPU metrics sampler's two-thread pipeline (collector/sampler/decode_pipeline.h) without a
// GPU: batches are delivered in the order they were submitted, an image is never handed out
// again while it waits or is being evaluated, drain() waits for the last delivery, and a failed
// evaluation is kept, not delivered, and gives its image back.
#include "collector/sampler/decode_pipeline.h"

#include <catch2/catch.hpp>
#include <chrono>
#include <set>
#include <thread>

using namespace sightline;
using namespace sightline::sampler;

namespace {

DecodedBatch batchOf(size_t image, uint64_t first, size_t count)
{
    DecodedBatch batch;
    batch.image = image;
    for (size_t i = 0; i < count; ++i)
        batch.samples.push_back({first + i, first + i + 1, std::vector<double>(1)});
    return batch;
}

} // namespace

TEST_CASE("the decode pipeline delivers evaluated batches in order and reuses only free images",
    "[decode-pipeline]")
{
    constexpr size_t kImages = 2, kBatches = 40;
    std::mutex mutex;
    std::set<size_t> held; // acquired and not yet given back
    bool reusedHeldImage = false;
    std::vector<uint64_t> delivered;
    {
        DecodePipeline pipeline(
            kImages,
            [&](DecodedBatch& batch) -> Status {
                const uint64_t first = batch.samples.front().start;
                // The last batch takes longest: drain() must still wait for its delivery.
                const bool last = first == (kBatches - 1) * 10;
                std::this_thread::sleep_for(std::chrono::microseconds(last ? 20000 : 200 * (first % 3)));
                for (RawSample& sample : batch.samples)
                    sample.values[0] = double(sample.start) * 2;
                return {};
            },
            [&](DecodedBatch& batch) {
                std::lock_guard lock(mutex);
                for (const RawSample& sample : batch.samples) {
                    CHECK(sample.values[0] == double(sample.start) * 2);
                    delivered.push_back(sample.start);
                }
                held.erase(batch.image); // the worker gives it back right after this
            });
        for (size_t b = 0; b < kBatches; ++b) {
            const size_t image = pipeline.acquire();
            {
                std::lock_guard lock(mutex);
                reusedHeldImage |= !held.insert(image).second;
            }
            REQUIRE(image < kImages);
            pipeline.submit(batchOf(image, b * 10, 5));
        }
        pipeline.drain();
        std::lock_guard lock(mutex);
        REQUIRE(delivered.size() == kBatches * 5); // drain() returned after the last delivery
    }
    CHECK_FALSE(reusedHeldImage);
    for (size_t i = 0; i < delivered.size(); ++i)
        CHECK(delivered[i] == (i / 5) * 10 + i % 5);
}

TEST_CASE("a failed evaluation is kept, not delivered, and gives its image back", "[decode-pipeline]")
{
    std::vector<uint64_t> delivered;
    DecodePipeline pipeline(
        1,
        [&](DecodedBatch& batch) -> Status {
            if (batch.samples.front().start == 100)
                return Status::failure("device 0: evaluating a sample failed");
            if (batch.samples.front().start == 200) return Status::failure("a later failure");
            return {};
        },
        [&](DecodedBatch& batch) { delivered.push_back(batch.samples.front().start); });
    for (uint64_t first : {0, 100, 200, 300}) {
        const size_t image = pipeline.acquire(); // one image: returns only once the last came back
        CHECK(image == 0);
        pipeline.submit(batchOf(image, first, 1));
    }
    pipeline.drain();
    CHECK(delivered == std::vector<uint64_t> {0, 300});
    CHECK(pipeline.failure() == "device 0: evaluating a sample failed");
}

TEST_CASE("destroying the decode pipeline delivers what was submitted", "[decode-pipeline]")
{
    size_t delivered = 0;
    {
        DecodePipeline pipeline(
            3,
            [](DecodedBatch&) -> Status {
                std::this_thread::sleep_for(std::chrono::milliseconds(2));
                return {};
            },
            [&](DecodedBatch& batch) { delivered += batch.samples.size(); });
        for (size_t b = 0; b < 3; ++b)
            pipeline.submit(batchOf(pipeline.acquire(), b, 4));
        CHECK(pipeline.failure().empty());
    }
    CHECK(delivered == 12);
}
