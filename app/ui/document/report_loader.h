// Loading a trace file off the GUI thread. A LoadRequest lives in the GUI thread; its worker
// runs on the global thread pool and talks back only through queued signals. For a .rep report
// that stores an overview (format 1.2, model/format/report_overview.h) the worker reads that
// first, from the file's first chunks, and hands it over at once (`overviewReady`), so the
// viewer paints the whole timeline before any event batch is decoded; an overview that cannot
// be read is no error by itself. Then it opens the file through the model's openTrace (a .rep
// report, an Nsight Systems SQLite export or a PyTorch/Chrome JSON trace, by content; progress
// in bytes, stop on cancel). Invariants: `finished` is emitted exactly once per started
// request, in the GUI thread, unless the request is destroyed first (then nothing is emitted
// and the worker is told to stop); once cancel() was called, `finished` says Cancelled even
// when the worker had already finished; `overviewReady` is emitted at most once, always
// before `finished` and never once cancel() was called; progress only grows and is throttled
// to about one signal per permille of the file. A report whose events would take more memory
// than the budget (app/ui/common/memory_budget.h) is not read whole: `finished` says
// OverBudget after its overview, and a request with setRange reads one range of it.
#pragma once

#include "model/format/report_overview.h"
#include "model/trace/trace.h"

#include <QObject>
#include <QString>
#include <memory>
#include <optional>

namespace sightline::ui {

struct LoadOutcome
{
    // OverBudget: the report's events need more memory than the budget (app/ui/common/
    // memory_budget.h), so only its overview was read; ranges of it can be read (setRange).
    enum class Status { Loaded, Failed, Cancelled, OverBudget };
    Status status = Status::Failed;
    std::shared_ptr<const Trace> trace; // Loaded only
    // The trace is the report's overview: stand-ins that draw the report's picture, not its
    // events; `reportEvents` is the report's own event count, `batches` where its event batches
    // start (its trace left empty), to weigh a range against the budget.
    bool overview = false;
    uint64_t reportEvents = 0; // overviews and OverBudget
    std::shared_ptr<const ReportOverview> batches; // overviews only
    std::optional<TimeRange> range; // a read of a range (setRange): the range
    QString error; // Failed only: one sentence naming the file
    double seconds = 0; // wall time of the load
};

// Reads any trace file the model understands, on the calling thread (the screenshot mode and
// the worker both use it). The error sentence names the file.
LoadOutcome loadTraceFile(const QString& path);

// Reads the overview of a .rep report on the calling thread: Loaded (with `overview` set), or
// Failed with one sentence naming the file when the report is damaged; no value for a file
// that stores no overview (not a report, an older format, a small report, one cut short).
std::optional<LoadOutcome> loadReportOverview(const QString& path);

class LoadChannel;

class LoadRequest : public QObject
{
    Q_OBJECT
public:
    explicit LoadRequest(QString path, QObject* parent = nullptr);
    ~LoadRequest() override; // cancels a running load

    const QString& path() const { return m_path; }
    // Before start(): read only the events starting in `range` (and their batches' neighbours),
    // with no overview first and no budget check: what the user asked for of a large report.
    void setRange(TimeRange range) { m_range = range; }
    void start(); // once
    void cancel(); // the worker stops at its next check; `finished` then says Cancelled
    bool isRunning() const { return m_running; }

signals:
    void progressed(qint64 bytesDone, qint64 bytesTotal);
    // The report's overview (LoadOutcome::overview), while the report itself loads.
    void overviewReady(const sightline::ui::LoadOutcome& overview);
    void finished(const sightline::ui::LoadOutcome& outcome);

private:
    QString m_path;
    std::optional<TimeRange> m_range;
    std::shared_ptr<LoadChannel> m_channel;
    bool m_running = false;
    qint64 m_bytesShown = -1;
};

} // namespace sightline::ui
