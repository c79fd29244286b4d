// Loading a trace file off the GUI thread. A LoadRequest lives in the GUI thread; its worker
// runs on the global thread pool, opens the file through the model's openTrace (a .rep report,
// an Nsight Systems SQLite export or a PyTorch/Chrome JSON trace, by content; progress in bytes,
// stop on cancel) and talks back only through queued signals. Invariants: `finished` is emitted exactly
// once per started request, in the GUI thread, unless the request is destroyed first (then
// nothing is emitted and the worker is told to stop); once cancel() was called, `finished`
// says Cancelled even when the worker had already finished; progress only grows and is
// throttled to about one signal per permille of the file.
#pragma once

#include "model/trace/trace.h"

#include <QObject>
#include <QString>
#include <memory>

namespace sightline::ui {

struct LoadOutcome
{
    enum class Status { Loaded, Failed, Cancelled };
    Status status = Status::Failed;
    std::shared_ptr<const Trace> trace; // Loaded only
    QString error; // Failed only: one sentence naming the file
    double seconds = 0; // wall time of the load
};

// Reads any trace file the model understands, on the calling thread (the screenshot mode and
// the worker both use it). The error sentence names the file.
LoadOutcome loadTraceFile(const QString& path);

class LoadChannel;

class LoadRequest : public QObject
{
    Q_OBJECT
public:
    explicit LoadRequest(QString path, QObject* parent = nullptr);
    ~LoadRequest() override; // cancels a running load

    const QString& path() const { return m_path; }
    void start(); // once
    void cancel(); // the worker stops at its next check; `finished` then says Cancelled
    bool isRunning() const { return m_running; }

signals:
    void progressed(qint64 bytesDone, qint64 bytesTotal);
    void finished(const sightline::ui::LoadOutcome& outcome);

private:
    QString m_path;
    std::shared_ptr<LoadChannel> m_channel;
    bool m_running = false;
    qint64 m_bytesShown = -1;
};

} // namespace sightline::ui
