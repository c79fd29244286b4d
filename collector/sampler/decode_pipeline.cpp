#include "collector/sampler/decode_pipeline.h"

#include <algorithm>
#include <utility>

namespace sightline::sampler {

DecodePipeline::DecodePipeline(size_t images, Evaluate evaluate, Deliver deliver)
    : m_evaluate(std::move(evaluate))
    , m_deliver(std::move(deliver))
{
    for (size_t i = std::max<size_t>(images, 1); i-- > 0;)
        m_free.push_back(i);
    m_worker = std::thread([this] { work(); });
}

DecodePipeline::~DecodePipeline()
{
    {
        std::lock_guard lock(m_mutex);
        m_stopping = true;
    }
    m_changed.notify_all();
    m_worker.join();
}

size_t DecodePipeline::acquire()
{
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [&] { return !m_free.empty(); });
    const size_t image = m_free.back();
    m_free.pop_back();
    return image;
}

void DecodePipeline::submit(DecodedBatch batch)
{
    {
        std::lock_guard lock(m_mutex);
        m_queue.push_back(std::move(batch));
    }
    m_changed.notify_all();
}

void DecodePipeline::drain()
{
    std::unique_lock lock(m_mutex);
    m_changed.wait(lock, [&] { return m_queue.empty() && m_busy == 0; });
}

std::string DecodePipeline::failure() const
{
    std::lock_guard lock(m_mutex);
    return m_failure;
}

void DecodePipeline::work()
{
    std::unique_lock lock(m_mutex);
    for (;;) {
        m_changed.wait(lock, [&] { return m_stopping || !m_queue.empty(); });
        if (m_queue.empty()) return; // stopping, and everything was delivered
        DecodedBatch batch = std::move(m_queue.front());
        m_queue.pop_front();
        ++m_busy;
        lock.unlock();
        const Status evaluated = m_evaluate(batch);
        if (evaluated) m_deliver(batch);
        lock.lock();
        if (!evaluated && m_failure.empty()) m_failure = evaluated.error();
        m_free.push_back(batch.image);
        --m_busy;
        m_changed.notify_all();
    }
}

} // namespace sightline::sampler
