// Running one command on a remote host through the system OpenSSH client, so that the user's
// ~/.ssh/config, keys, agent and known_hosts apply exactly as in a terminal. ssh runs with
// BatchMode=yes: it never prompts (no password, no host-key question), and Sightline never sees
// or stores a password. SIGHTLINE_SSH_COMMAND (like GIT_SSH_COMMAND: a program and options,
// e.g. "ssh -F ~/work/ssh_config") replaces the plain `ssh`.
//
// SshCommand runs the process asynchronously; stdout is either collected or handed over chunk
// by chunk (for downloads). Invariant: `finished` is emitted exactly once per start(), after
// the process ended (or failed to start), unless cancel() came first: then `cancelled` is
// emitted instead, once.
#pragma once

#include "app/ui/common/shell_words.h"
#include "app/ui/remote/remote_location.h"

#include <QObject>
#include <QProcess>
#include <QStringList>

namespace sightline::ui {

// The ssh program and its arguments for running `remoteCommand` (a shell command line) on
// the location's host.
QStringList sshCommandLine(const RemoteLocation& location, const QString& remoteCommand);

// A remote path as a shell word: "~" and "~/..." keep the tilde outside the quotes so the
// remote shell expands it; "" means the home folder.
QString remotePathWord(const QString& path);

// Why an ssh connection failed, from its exit code (255 for ssh's own errors) and stderr.
enum class SshFailure { None, Unreachable, Authentication, HostKey, ClientMissing, Other };
SshFailure classifySshFailure(int exitCode, const QString& stdErr);

// One sentence for the user; `stdErr` supplies details for SshFailure::Other.
QString describeSshFailure(SshFailure failure, const RemoteLocation& location, const QString& stdErr);

class SshCommand : public QObject
{
    Q_OBJECT
public:
    enum class Output { Collect, Stream };

    explicit SshCommand(QObject* parent = nullptr);
    ~SshCommand() override; // kills a running ssh

    void start(const RemoteLocation& location, const QString& remoteCommand, Output output = Output::Collect);
    void cancel();
    bool isRunning() const;

    const QByteArray& collectedOutput() const { return m_output; }
    QString standardError() const { return QString::fromLocal8Bit(m_stdErr).trimmed(); }
    int exitCode() const { return m_exitCode; } // -1 when ssh could not start or crashed
    SshFailure failure() const { return classifySshFailure(m_exitCode, standardError()); }

signals:
    void outputChunk(const QByteArray& bytes); // Output::Stream only
    void finished();
    void cancelled();

private:
    void onReadyRead();
    void onFinished(int exitCode, QProcess::ExitStatus status);
    void onError(QProcess::ProcessError error);

    QProcess* m_process = nullptr;
    Output m_outputMode = Output::Collect;
    QByteArray m_output;
    QByteArray m_stdErr;
    int m_exitCode = -1;
    bool m_done = false;
};

} // namespace sightline::ui
