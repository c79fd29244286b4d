#include "app/ui/document/report_document.h"

#include "app/ui/common/memory_budget.h"
#include "model/format/paging/track_pager.h"
#include "model/open/report_hold.h"
#include "model/text/time_text.h"

#include <QLocale>

namespace sightline::ui {

namespace {

// A range as the line above an over-budget report's timeline names it, to a thousandth of it.
QString rangeText(TimeRange range)
{
    const Duration resolution = std::max<Duration>(1, range.duration() / 1000);
    return QString::fromStdString(
        formatTimestamp(range.start, resolution) + " - " + formatTimestamp(range.end, resolution));
}

} // namespace

ReportDocument::ReportDocument(QString path, QObject* parent)
    : QObject(parent)
    , m_path(std::move(path))
{
    m_followTimer.setSingleShot(true);
    m_followTimer.setInterval(300);
    connect(&m_followTimer, &QTimer::timeout, this, &ReportDocument::followView);
}

ReportDocument::~ReportDocument() = default;

void ReportDocument::load()
{
    m_loadPercent = 0;
    auto request = std::make_unique<LoadRequest>(m_path);
    connect(request.get(), &LoadRequest::overviewReady, this, [this](const LoadOutcome& overview) {
        // A reload keeps the report shown until the new one has loaded, so that a failed or
        // cancelled reload still leaves it.
        if (!m_events) showOverview(overview);
    });
    start(std::move(request));
    emit loadStarted();
}

void ReportDocument::start(std::unique_ptr<LoadRequest> request)
{
    // The newest request wins: the running one is cancelled and its signals are dropped with it.
    if (m_request) m_request->cancel();
    m_request = std::move(request);
    connect(m_request.get(), &LoadRequest::progressed, this, &ReportDocument::onProgress);
    connect(m_request.get(), &LoadRequest::finished, this, &ReportDocument::onFinished);
    m_request->start();
}

void ReportDocument::cancel()
{
    if (m_request) m_request->cancel();
}

void ReportDocument::onProgress(qint64 bytesDone, qint64 bytesTotal)
{
    if (bytesTotal <= 0) return;
    m_loadPercent = int(std::min(bytesDone, bytesTotal) * 100 / bytesTotal);
    emit progressed(bytesDone, bytesTotal);
    if (m_showsOverview && !m_overBudget) setLine(loadingSentence(), true);
}

void ReportDocument::showOverview(const LoadOutcome& overview)
{
    m_events.reset();
    m_loadedRange.reset();
    m_overview = overview;
    m_overviewEvents = overview.reportEvents;
    m_showsOverview = true;
    emit traceShown(overview.trace, true);
    // A report over the budget is never read whole: its overview says so and offers ranges.
    if (m_overBudget)
        setLine(overBudgetSentence(), false);
    else
        setLine(loadingSentence(), true);
    emit overviewShown();
}

void ReportDocument::showTrace(std::shared_ptr<const Trace> trace, std::optional<TimeRange> range)
{
    m_events = std::move(trace);
    m_showsOverview = false;
    m_loadedRange = range;
    emit traceShown(m_events, false);
    if (range)
        setLine(tr("Showing the %1 events that start in %2 and their neighbours; the rest of this report is "
                   "not loaded (it is over the memory budget).")
                    .arg(QLocale().toString(qulonglong(m_events->eventCount())), rangeText(*range)),
            false);
}

void ReportDocument::onFinished(const LoadOutcome& outcome)
{
    // The request is the sender: it is deleted once its signal has returned.
    m_request.release()->deleteLater();
    // A load that stopped or failed: a range's read leaves what is shown, with its buttons; an
    // overview says that it stays one.
    const auto sayStopped = [this](const QString& overviewOnly) {
        if (m_overBudget)
            setLine(m_loadedRange ? m_line.sentence : overBudgetSentence(), false);
        else if (m_showsOverview)
            setLine(overviewOnly, false);
    };
    switch (outcome.status) {
    case LoadOutcome::Status::Loaded:
        showTrace(outcome.trace, outcome.range);
        emit loaded(outcome.seconds);
        return;
    case LoadOutcome::Status::OverBudget:
        m_overBudget = true;
        if (m_showsOverview) setLine(overBudgetSentence(), false);
        emit loaded(outcome.seconds);
        return;
    case LoadOutcome::Status::Failed:
        sayStopped(tr("Overview only: the report's events could not be loaded; reopen it to try again."));
        emit loadFailed(outcome.error);
        return;
    case LoadOutcome::Status::Cancelled:
        sayStopped(tr("Overview only: loading was cancelled; reopen the report to see its events."));
        emit loadCancelled();
        return;
    }
}

ReportSize ReportDocument::size() const
{
    if (!m_overview) return {m_overviewEvents};
    return {m_overviewEvents, m_overview->batches.get(), m_overview->trace->span};
}

uint64_t ReportDocument::budget() const
{
    // What a track's events from the file hold counts against the budget too.
    const uint64_t held = m_heldBytes ? m_heldBytes() : 0;
    return memoryBudget() > held ? memoryBudget() - held : 0;
}

void ReportDocument::viewMoved(TimeRange visible)
{
    m_visible = visible;
    if (m_overBudget) m_followTimer.start();
}

void ReportDocument::followView()
{
    if (!m_overBudget || !m_overview || !m_overview->batches) return;
    const auto holds = [&](const std::optional<TimeRange>& range) {
        return range && range->start <= m_visible.start && m_visible.end <= range->end;
    };
    // Shown already, or being read (a range the user chose included).
    if (holds(m_loadedRange) || (m_request && holds(m_readingRange))) return;
    const Hold hold = decideHold(size(), m_visible, budget(), RangeMargin::Around);
    if (hold.kind == HoldKind::Range)
        readRange(hold.range, hold.events);
    else if (m_loadedRange) // zoomed out of what was read: the overview shows the whole again
        showOverview(LoadOutcome(*m_overview));
}

void ReportDocument::loadRange(std::optional<TimeRange> selection)
{
    if (!m_overview || !m_overview->batches) return;
    if (!selection) {
        setLine(tr("Select a time range first (drag across the timeline), then choose Load Range."), false);
        return;
    }
    const Hold hold = decideHold(size(), selection, budget(), RangeMargin::Exact);
    if (hold.kind == HoldKind::Range) {
        readRange(hold.range, hold.events);
        return;
    }
    setLine(tr("The range %1 holds about %2 events, more than the memory budget allows; select a shorter "
               "range.")
                .arg(rangeText(*selection), QLocale().toString(qulonglong(hold.events))),
        false);
}

void ReportDocument::readRange(TimeRange range, uint64_t events)
{
    auto request = std::make_unique<LoadRequest>(m_path);
    request->setRange(range);
    m_readingRange = range;
    m_loadPercent = 0;
    setLine(tr("Loading the events that start in %1 (about %2 events)…")
                .arg(rangeText(range), QLocale().toString(qulonglong(events))),
        true);
    start(std::move(request));
}

void ReportDocument::backToOverview()
{
    if (m_overview) showOverview(LoadOutcome(*m_overview));
}

bool ReportDocument::openTrack(const std::vector<TrackId>& tracks, std::optional<uint32_t> shownTrack)
{
    if (!m_overview || !m_overview->batches || tracks.empty()) return true;
    // One track at a time: the row's largest (a stream row holds kernels, copies and syncs).
    const ReportOverview& overview = *m_overview->batches;
    TrackId largest = tracks.front();
    for (TrackId track : tracks)
        if (overview.trackEvents(track.value) > overview.trackEvents(largest.value)) largest = track;
    if (shownTrack == largest.value) return false;
    // Opening reads the report's strings and descriptors, which grow with it.
    m_trackOpening.start([path = m_path.toStdString(), track = largest.value](
                             const std::atomic<bool>&) { return TrackPager::open(path, track); },
        [this, track = largest.value](Result<OpenedTrack> opened, bool newest) {
            if (!newest) return;
            if (!opened) {
                setLine(QString::fromStdString(opened.error()), false);
                return;
            }
            emit trackOpened(std::make_shared<OpenedTrack>(std::move(opened.value())), track);
        });
    return true;
}

void ReportDocument::setLine(QString sentence, bool offersCancel)
{
    m_line.sentence = std::move(sentence);
    m_line.offersCancel = offersCancel;
    // A report over the budget offers its ranges, and the way back to its overview from one.
    m_line.offersLoadRange = m_overBudget && !offersCancel;
    m_line.offersOverview = m_overBudget && !offersCancel && m_loadedRange.has_value();
    emit lineChanged(m_line);
}

QString ReportDocument::loadingSentence() const
{
    return tr("Overview: drawn from the report's summary while its %1 events load (%2%).")
        .arg(QLocale().toString(qulonglong(m_overviewEvents)))
        .arg(m_loadPercent);
}

QString ReportDocument::overBudgetSentence() const
{
    const QLocale locale;
    return tr("Overview only: this report's %1 events need about %2 of memory, more than the viewer's "
              "budget of %3 (sightline-ui --memory-budget). Select a time range and choose Load Range to "
              "see its events.")
        .arg(locale.toString(qulonglong(m_overviewEvents)),
            locale.formattedDataSize(qint64(m_overviewEvents * kResidentBytesPerEvent), 1),
            locale.formattedDataSize(qint64(memoryBudget()), 1));
}

} // namespace sightline::ui
