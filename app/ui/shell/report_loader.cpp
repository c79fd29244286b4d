#include "app/ui/shell/report_loader.h"

#include "model/import/open_trace.h"
#include "views/timeline/rows/projected_nvtx_tracks.h"

#include <QElapsedTimer>
#include <QMetaObject>
#include <QThreadPool>
#include <atomic>

namespace sightline::ui {

namespace {

LoadOutcome readTrace(const QString& path, const ReadOptions& options)
{
    QElapsedTimer clock;
    clock.start();
    auto result = openTrace(path.toStdString(), options);
    LoadOutcome outcome;
    outcome.seconds = double(clock.nsecsElapsed()) / 1e9;
    if (options.cancel && options.cancel->load()) {
        outcome.status = LoadOutcome::Status::Cancelled;
    } else if (result) {
        outcome.status = LoadOutcome::Status::Loaded;
        views::addProjectedNvtxTracks(result.value());
        outcome.trace = std::make_shared<const Trace>(std::move(result.value()));
    } else {
        outcome.status = LoadOutcome::Status::Failed;
        outcome.error = QString::fromStdString(result.error());
    }
    return outcome;
}

} // namespace

LoadOutcome loadTraceFile(const QString& path)
{
    return readTrace(path, ReadOptions {});
}

// What the worker and the request share. It lives in the GUI thread and is deleted there
// (deleteLater) when the last of the two lets go, so the worker may emit through it safely.
class LoadChannel : public QObject
{
    Q_OBJECT
public:
    std::atomic<bool> cancelled {false};

    // Any thread. Emits only when the permille figure grows, so a file read in thousands of
    // chunks does not flood the GUI thread's queue.
    void reportProgress(uint64_t done, uint64_t total)
    {
        const int permille = total == 0 ? 1000 : int(std::min<uint64_t>(done, total) * 1000 / total);
        int last = m_lastPermille.load();
        while (permille > last) {
            if (m_lastPermille.compare_exchange_weak(last, permille)) {
                emit progressed(qint64(done), qint64(total));
                return;
            }
        }
    }

    // Worker thread: hands the outcome to the GUI thread, where `delivered` is emitted.
    void deliver(LoadOutcome outcome)
    {
        QMetaObject::invokeMethod(
            this, [this, outcome = std::move(outcome)] { emit delivered(outcome); }, Qt::QueuedConnection);
    }

signals:
    void progressed(qint64 bytesDone, qint64 bytesTotal);
    void delivered(const sightline::ui::LoadOutcome& outcome);

private:
    std::atomic<int> m_lastPermille {-1};
};

LoadRequest::LoadRequest(QString path, QObject* parent)
    : QObject(parent)
    , m_path(std::move(path))
    , m_channel(new LoadChannel, [](LoadChannel* channel) { channel->deleteLater(); })
{
    // The worker emits `progressed` from its own threads: the connection is queued. Two decoding
    // threads may emit out of order; only figures that grow are passed on.
    connect(m_channel.get(), &LoadChannel::progressed, this, [this](qint64 done, qint64 total) {
        if (done <= m_bytesShown) return;
        m_bytesShown = done;
        emit progressed(done, total);
    });
    connect(m_channel.get(), &LoadChannel::delivered, this, [this](const LoadOutcome& outcome) {
        m_running = false;
        // A Cancel clicked while a finished load was on its way here still wins.
        if (m_channel->cancelled && outcome.status != LoadOutcome::Status::Cancelled) {
            LoadOutcome cancelled;
            cancelled.status = LoadOutcome::Status::Cancelled;
            cancelled.seconds = outcome.seconds;
            emit finished(cancelled);
            return;
        }
        emit finished(outcome);
    });
}

LoadRequest::~LoadRequest()
{
    m_channel->disconnect(this);
    m_channel->cancelled = true;
}

void LoadRequest::start()
{
    if (m_running) return;
    m_running = true;
    QThreadPool::globalInstance()->start([channel = m_channel, path = m_path] {
        ReadOptions options;
        options.cancel = &channel->cancelled;
        options.progress
            = [&channel](uint64_t done, uint64_t total) { channel->reportProgress(done, total); };
        channel->deliver(readTrace(path, options));
    });
}

void LoadRequest::cancel()
{
    m_channel->cancelled = true;
}

} // namespace sightline::ui

#include "report_loader.moc"
