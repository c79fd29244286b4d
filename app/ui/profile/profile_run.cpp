#include "app/ui/profile/profile_run.h"

#include "app/ui/common/shell_words.h"
#include "app/ui/profile/profile_checks.h"

#include <QDir>
#include <QFileInfo>
#include <QTimer>
#include <csignal>
#include <unistd.h>

namespace sightline::ui {

namespace {

constexpr int kTickMs = 250;
constexpr int kShutdownWaitMs = 15000;
constexpr qsizetype kLongestLine = 64 * 1024; // a longer partial line is shown as it is

} // namespace

ProfileRun::ProfileRun(QString sightlinePath, QObject* parent)
    : QObject(parent)
    , m_sightline(std::move(sightlinePath))
    , m_ticker(new QTimer(this))
{
    m_ticker->setInterval(kTickMs);
    connect(m_ticker, &QTimer::timeout, this, &ProfileRun::progressed);
}

ProfileRun::~ProfileRun()
{
    if (!m_process || !isRunning()) return;
    m_process->disconnect(this);
    const qint64 pid = m_process->processId();
    if (pid > 0) ::kill(pid_t(pid), SIGINT);
    if (!m_process->waitForFinished(kShutdownWaitMs) && pid > 0) ::kill(-pid_t(pid), SIGKILL);
    m_process->waitForFinished(2000);
}

void ProfileRun::start(const ProfileSettings& settings, bool overwriteOutput)
{
    if (isRunning()) return;
    ProfileSettings resolved = settings;
    // A path is handed over absolute: the launcher runs in the working directory.
    if (settings.executable.contains(QLatin1Char('/'))) {
        const QString program = resolveExecutable(settings);
        if (!program.isEmpty()) resolved.executable = program;
    }
    m_workingDirectory = settings.effectiveWorkingDirectory();
    m_arguments = resolved.launcherArguments(overwriteOutput);
    m_reportPath.clear();
    m_lastProblem.clear();
    m_events = -1;
    m_stopRequests = 0;
    m_pending[0].clear();
    m_pending[1].clear();

    delete m_process;
    m_process = new QProcess(this);
    m_process->setProgram(m_sightline);
    m_process->setArguments(m_arguments);
    m_process->setWorkingDirectory(m_workingDirectory);
    m_process->setStandardInputFile(QProcess::nullDevice());
    QProcessEnvironment environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QString::fromLatin1(kProgressIntervalVariable), QStringLiteral("1"));
    m_process->setProcessEnvironment(environment);
    // Its own process group: the last-resort stop ends the launcher and everything it started.
    m_process->setChildProcessModifier([] { ::setpgid(0, 0); });
    connect(m_process, &QProcess::readyReadStandardOutput, this,
        [this] { readChannel(QProcess::StandardOutput, false); });
    connect(m_process, &QProcess::readyReadStandardError, this,
        [this] { readChannel(QProcess::StandardError, false); });
    connect(m_process, &QProcess::finished, this, &ProfileRun::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, &ProfileRun::onError);
    m_clock.start();
    setState(State::Collecting);
    m_ticker->start();
    emit outputLine(QStringLiteral("$ sightline ") + joinShellWords(m_arguments), Channel::Collector);
    m_process->start();
}

void ProfileRun::stop()
{
    if (!isRunning() || !m_process) return;
    const qint64 pid = m_process->processId();
    if (pid <= 0) return;
    ++m_stopRequests;
    if (m_stopRequests == 1) {
        ::kill(pid_t(pid), SIGINT);
        emit outputLine(tr("Stopping: the program was sent SIGINT; the report is written once it has ended."),
            Channel::Collector);
    } else if (m_stopRequests == 2) {
        ::kill(pid_t(pid), SIGTERM);
        emit outputLine(tr("Stopping: the program was sent SIGTERM."), Channel::Collector);
    } else {
        ::kill(-pid_t(pid), SIGKILL);
        emit outputLine(
            tr("Collection aborted: the launcher and the program were killed."), Channel::Collector);
    }
    if (m_state == State::Collecting) setState(State::Stopping);
}

double ProfileRun::elapsedSeconds() const
{
    if (m_state == State::Finished) return m_finalSeconds;
    if (!m_clock.isValid()) return 0;
    return double(m_clock.elapsed()) / 1000.0;
}

qint64 ProfileRun::launcherPid() const
{
    return m_process ? m_process->processId() : 0;
}

void ProfileRun::readChannel(QProcess::ProcessChannel channel, bool flush)
{
    m_process->setReadChannel(channel);
    QByteArray& pending = m_pending[channel == QProcess::StandardOutput ? 0 : 1];
    pending += m_process->readAll();
    qsizetype start = 0;
    for (;;) {
        const qsizetype newline = pending.indexOf('\n', start);
        if (newline < 0) break;
        QByteArray line = pending.mid(start, newline - start);
        if (line.endsWith('\r')) line.chop(1);
        handleLine(QString::fromLocal8Bit(line), channel);
        start = newline + 1;
    }
    pending.remove(0, start);
    if ((flush && !pending.isEmpty()) || pending.size() > kLongestLine) {
        handleLine(QString::fromLocal8Bit(pending), channel);
        pending.clear();
    }
}

void ProfileRun::handleLine(const QString& line, QProcess::ProcessChannel channel)
{
    if (channel == QProcess::StandardOutput) {
        emit outputLine(line, Channel::TargetStdout);
        return;
    }
    const LauncherLine parsed = classifyLauncherLine(line);
    switch (parsed.kind) {
    case LauncherLine::Kind::TargetOutput:
        emit outputLine(line, Channel::TargetStderr);
        return;
    case LauncherLine::Kind::Progress:
        m_events = parsed.events;
        emit progressed();
        return; // periodic: the status line shows it, the pane does not fill up with it
    case LauncherLine::Kind::Processing:
        m_events = parsed.events;
        setState(State::Processing);
        break;
    case LauncherLine::Kind::Generated:
        m_reportPath = QDir::cleanPath(QDir(m_workingDirectory).absoluteFilePath(parsed.reportPath));
        break;
    case LauncherLine::Kind::Problem:
        m_lastProblem = line;
        emit outputLine(line, Channel::CollectorProblem);
        return;
    case LauncherLine::Kind::Collecting:
        break;
    }
    emit outputLine(line, Channel::Collector);
}

void ProfileRun::onFinished(int exitCode, QProcess::ExitStatus status)
{
    readChannel(QProcess::StandardOutput, true);
    readChannel(QProcess::StandardError, true);
    ProfileOutcome outcome;
    outcome.exitCode = status == QProcess::NormalExit ? exitCode : -1;
    if (!m_reportPath.isEmpty() && QFileInfo::exists(m_reportPath)) {
        outcome.succeeded = true;
        outcome.reportPath = m_reportPath;
    } else if (status != QProcess::NormalExit) {
        outcome.error = tr("sightline profile was killed before it wrote a report.");
    } else if (!m_lastProblem.isEmpty()) {
        outcome.error = m_lastProblem;
    } else {
        outcome.error
            = tr("sightline profile ended (exit code %1) without writing a report; see the output above.")
                  .arg(exitCode);
    }
    finish(outcome);
}

void ProfileRun::onError(QProcess::ProcessError error)
{
    if (error != QProcess::FailedToStart) return;
    ProfileOutcome outcome;
    outcome.error
        = tr("%1 could not be started (%2); reinstall Sightline.").arg(m_sightline, m_process->errorString());
    finish(outcome);
}

void ProfileRun::finish(ProfileOutcome outcome)
{
    if (m_state == State::Finished) return;
    m_finalSeconds = double(m_clock.elapsed()) / 1000.0;
    m_ticker->stop();
    outcome.stopped = m_stopRequests > 0;
    outcome.events = m_events;
    outcome.seconds = m_finalSeconds;
    setState(State::Finished);
    emit finished(outcome);
}

void ProfileRun::setState(State state)
{
    if (m_state == state) return;
    m_state = state;
    emit progressed();
}

} // namespace sightline::ui
