// Background work where only the newest request matters (a sort, a filter, a stats range):
// start() runs the work on Qt's thread pool and hands its result back on the owner's thread,
// through the event loop, never inside the call that started it. Invariant: starting a
// request cancels the previous one (its flag is set, so it can stop early) and marks its
// result stale; `done` is told whether its result is the newest, and only the newest clears
// isBusy(). Results for an owner that was destroyed are dropped.
#pragma once

#include <QObject>
#include <QtConcurrent/QtConcurrentRun>
#include <atomic>
#include <memory>
#include <type_traits>

namespace sightline::views {

class LatestRequest
{
public:
    // `owner` is the QObject whose thread receives results; this object must be its member.
    explicit LatestRequest(QObject* owner)
        : m_owner(owner)
    { }
    ~LatestRequest() { cancel(); }
    LatestRequest(const LatestRequest&) = delete;
    LatestRequest& operator=(const LatestRequest&) = delete;

    // work(const std::atomic<bool>& cancel) -> R, on a worker thread;
    // done(R result, bool newest), on the owner's thread.
    template <class Work, class Done> void start(Work work, Done done)
    {
        using Result = std::invoke_result_t<Work&, const std::atomic<bool>&>;
        cancel();
        auto flag = std::make_shared<std::atomic<bool>>(false);
        m_cancel = flag;
        const uint64_t generation = ++m_generation;
        m_busy = true;
        QtConcurrent::run([work = std::move(work), flag]() mutable {
            return std::make_shared<Result>(work(*flag));
        }).then(m_owner, [this, generation, done = std::move(done)](std::shared_ptr<Result> result) mutable {
            QMetaObject::invokeMethod(
                m_owner,
                [this, generation, done = std::move(done), result]() mutable {
                    const bool newest = generation == m_generation;
                    if (newest) m_busy = false;
                    done(std::move(*result), newest);
                },
                Qt::QueuedConnection);
        });
    }

    void cancel()
    {
        if (m_cancel) m_cancel->store(true);
    }
    bool isBusy() const { return m_busy; }

private:
    QObject* m_owner;
    std::shared_ptr<std::atomic<bool>> m_cancel;
    uint64_t m_generation = 0;
    bool m_busy = false;
};

} // namespace sightline::views
