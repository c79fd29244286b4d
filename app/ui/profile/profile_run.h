// One profiling run: `sightline profile` started as a child process of the viewer (never the
// target inside the GUI process), its output split into the target's lines and the collector's,
// progress (elapsed time, events so far), and a graceful Stop. Stop sends SIGINT to the
// launcher, which forwards it to the target and still writes the report; a second Stop sends
// SIGTERM the same way; a third ends the launcher's whole process group (no report).
// Invariants: `finished` is emitted exactly once per start(); a run that ended with a report
// names it in the outcome (the "Generated:" line, resolved against the working directory).
#pragma once

#include "app/ui/profile/launcher_output.h"
#include "app/ui/profile/profile_settings.h"

#include <QElapsedTimer>
#include <QObject>
#include <QProcess>

class QTimer;

namespace sightline::ui {

struct ProfileOutcome
{
    bool succeeded = false; // a report was written
    QString reportPath; // absolute
    QString error; // one sentence when no report was written
    int exitCode = -1; // the target's exit code as the launcher passed it on
    bool stopped = false; // the user pressed Stop
    qint64 events = -1;
    double seconds = 0;
};

class ProfileRun : public QObject
{
    Q_OBJECT
public:
    enum class State { Idle, Collecting, Stopping, Processing, Finished };
    enum class Channel { TargetStdout, TargetStderr, Collector, CollectorProblem };

    explicit ProfileRun(QString sightlinePath, QObject* parent = nullptr);
    ~ProfileRun() override; // a running collection is stopped gracefully (waits up to 15 s)

    // Starts `sightline profile` for `settings` (which should pass checkProfileSettings).
    void start(const ProfileSettings& settings, bool overwriteOutput);
    void stop();

    State state() const { return m_state; }
    bool isRunning() const { return m_state != State::Idle && m_state != State::Finished; }
    double elapsedSeconds() const;
    qint64 events() const { return m_events; }
    qint64 launcherPid() const;
    const QStringList& launcherArguments() const { return m_arguments; }

signals:
    void outputLine(const QString& text, sightline::ui::ProfileRun::Channel channel);
    void progressed(); // state, elapsed time or events changed
    void finished(const sightline::ui::ProfileOutcome& outcome);

private:
    void readChannel(QProcess::ProcessChannel channel, bool flush);
    void handleLine(const QString& line, QProcess::ProcessChannel channel);
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onError(QProcess::ProcessError error);
    void finish(ProfileOutcome outcome);
    void setState(State state);

    QString m_sightline;
    QProcess* m_process = nullptr;
    QTimer* m_ticker = nullptr;
    QElapsedTimer m_clock;
    double m_finalSeconds = 0;
    qint64 m_events = -1;
    State m_state = State::Idle;
    int m_stopRequests = 0;
    QString m_workingDirectory;
    QString m_reportPath;
    QString m_lastProblem;
    QStringList m_arguments;
    QByteArray m_pending[2]; // partial lines of stdout and stderr
};

} // namespace sightline::ui
