#include "app/ui/document/report_loader.h"

#include "app/ui/common/memory_budget.h"
#include "model/format/report_io.h"
#include "model/format/report_outline.h"
#include "model/format/report_overview.h"
#include "model/import/open_trace.h"
#include "model/open/report_hold.h"
#include "model/open/source_identity.h"

#include <QElapsedTimer>
#include <QLocale>
#include <QMetaObject>
#include <QThreadPool>
#include <atomic>

namespace sightline::ui {

namespace {

LoadOutcome readTrace(const QString& path, ReadOptions options)
{
    options.deriveTracks = true; // the timeline draws them
    QElapsedTimer clock;
    clock.start();
    auto result = openTrace(path.toStdString(), options);
    LoadOutcome outcome;
    outcome.seconds = double(clock.nsecsElapsed()) / 1e9;
    if (options.cancel && options.cancel->load()) {
        outcome.status = LoadOutcome::Status::Cancelled;
    } else if (result) {
        outcome.status = LoadOutcome::Status::Loaded;
        identifySource(result.value(), path.toStdString());
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

std::optional<LoadOutcome> loadReportOverview(const QString& path)
{
    const std::string file = path.toStdString();
    if (!looksLikeReport(file)) return std::nullopt;
    QElapsedTimer clock;
    clock.start();
    auto result = readReportOverview(file);
    LoadOutcome outcome;
    if (!result) {
        outcome.status = LoadOutcome::Status::Failed;
        outcome.error = QString::fromStdString(result.error());
    } else if (!result.value()) {
        return std::nullopt;
    } else {
        ReportOverview& overview = *result.value();
        identifySource(overview.trace, file);
        outcome.status = LoadOutcome::Status::Loaded;
        outcome.overview = true;
        outcome.reportEvents = overview.events;
        outcome.trace = std::make_shared<const Trace>(std::move(overview.trace));
        overview.trace = Trace {};
        outcome.batches = std::make_shared<const ReportOverview>(std::move(overview));
    }
    outcome.seconds = double(clock.nsecsElapsed()) / 1e9;
    return outcome;
}

namespace {

// A report that stores no overview (written before format 1.2, or small) is read whole or not
// at all: one whose outline (format 1.1 on) says its events need more than the budget is refused
// with a sentence saying what to do, instead of being read into more memory than there may be.
std::optional<LoadOutcome> refuseOverBudgetWithoutOverview(const QString& path, uint64_t budget)
{
    const Result<std::optional<ReportOutline>> outline = readReportOutline(path.toStdString());
    if (!outline || !outline.value()) return std::nullopt;
    const uint64_t events = outline.value()->eventCount();
    if (decideHold({events, nullptr}, std::nullopt, budget, RangeMargin::Around).kind != HoldKind::Refused)
        return std::nullopt;
    const QLocale locale;
    LoadOutcome refused;
    refused.status = LoadOutcome::Status::Failed;
    refused.error = QStringLiteral(
        "'%1' holds %2 events, which need about %3 of memory, more than the viewer's budget of %4, and it "
        "stores no overview to show instead (reports written before format 1.2 do not): rewrite it with "
        "'sightline import %1 -o NEW.rep' to open it within the budget, or raise the budget with "
        "sightline-ui --memory-budget.")
                        .arg(path, locale.toString(qulonglong(events)),
                            locale.formattedDataSize(qint64(events * kResidentBytesPerEvent), 1),
                            locale.formattedDataSize(qint64(budget), 1));
    return refused;
}

} // namespace

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

    // Worker thread: hands the outcome to the GUI thread, where `delivered` is emitted. Both
    // go through the one queue of this object, so an overview always arrives first.
    void deliver(LoadOutcome outcome)
    {
        QMetaObject::invokeMethod(
            this, [this, outcome = std::move(outcome)] { emit delivered(outcome); }, Qt::QueuedConnection);
    }
    void deliverOverview(LoadOutcome overview)
    {
        QMetaObject::invokeMethod(
            this, [this, overview = std::move(overview)] { emit overviewDelivered(overview); },
            Qt::QueuedConnection);
    }

signals:
    void progressed(qint64 bytesDone, qint64 bytesTotal);
    void overviewDelivered(const sightline::ui::LoadOutcome& overview);
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
    // Cancel wins here too: an overview on its way when Cancel was clicked is dropped.
    connect(m_channel.get(), &LoadChannel::overviewDelivered, this, [this](const LoadOutcome& overview) {
        if (m_running && !m_channel->cancelled) emit overviewReady(overview);
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
    QThreadPool::globalInstance()->start(
        [channel = m_channel, path = m_path, range = m_range, budget = memoryBudget()] {
            ReadOptions options;
            options.cancel = &channel->cancelled;
            options.progress
                = [&channel](uint64_t done, uint64_t total) { channel->reportProgress(done, total); };
            if (range) {
                options.select.startsIn = range;
                LoadOutcome outcome = readTrace(path, options);
                outcome.range = range;
                channel->deliver(std::move(outcome));
                return;
            }
            // The overview first; a damaged one is left to the full read below to report.
            if (!channel->cancelled) {
                std::optional<LoadOutcome> overview = loadReportOverview(path);
                // Without an overview to show, a report over the budget is refused: a damaged
                // overview with the sentence naming the damage, a missing one with what to do.
                const bool shown = overview && overview->status == LoadOutcome::Status::Loaded;
                if (!shown)
                    if (std::optional<LoadOutcome> refused = refuseOverBudgetWithoutOverview(path, budget)) {
                        channel->deliver(std::move(overview ? *overview : *refused));
                        return;
                    }
                if (shown && !channel->cancelled) {
                    const uint64_t events = overview->reportEvents;
                    const HoldKind hold = decideHold(
                        {events, overview->batches.get()}, std::nullopt, budget, RangeMargin::Around)
                                              .kind;
                    channel->deliverOverview(std::move(*overview));
                    if (hold == HoldKind::Overview) {
                        LoadOutcome overBudget;
                        overBudget.status = LoadOutcome::Status::OverBudget;
                        overBudget.reportEvents = events;
                        channel->deliver(std::move(overBudget));
                        return;
                    }
                }
            }
            channel->deliver(readTrace(path, options));
        });
}

void LoadRequest::cancel()
{
    m_channel->cancelled = true;
}

} // namespace sightline::ui

#include "report_loader.moc"
