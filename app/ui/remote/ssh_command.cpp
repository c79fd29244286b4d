#include "app/ui/remote/ssh_command.h"

#include <QProcessEnvironment>

namespace sightline::ui {

namespace {

constexpr int kSshErrorExit = 255; // what ssh returns for its own failures
constexpr int kConnectTimeoutSeconds = 15;

QStringList sshProgramAndOptions()
{
    const QString custom = qEnvironmentVariable("SIGHTLINE_SSH_COMMAND").trimmed();
    if (!custom.isEmpty()) {
        const QStringList words = splitShellWords(custom);
        if (!words.isEmpty()) return words;
    }
    return {QStringLiteral("ssh")};
}

bool mentions(const QString& text, std::initializer_list<const char*> phrases)
{
    for (const char* phrase : phrases)
        if (text.contains(QLatin1String(phrase), Qt::CaseInsensitive)) return true;
    return false;
}

QString lastLine(const QString& text)
{
    const QStringList lines = text.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return lines.isEmpty() ? QString() : lines.constLast().trimmed();
}

QString unreachableDetail(const QString& stdErr)
{
    if (mentions(stdErr, {"Could not resolve hostname", "Name or service not known"}))
        return QStringLiteral("the host name is unknown");
    if (mentions(stdErr, {"Connection refused"})) return QStringLiteral("the connection was refused");
    if (mentions(stdErr, {"timed out"})) return QStringLiteral("the connection timed out");
    if (mentions(stdErr, {"No route to host", "Network is unreachable"}))
        return QStringLiteral("there is no route to it");
    return QStringLiteral("the connection was closed before login");
}

} // namespace

QString remotePathWord(const QString& path)
{
    if (path.isEmpty() || path == QLatin1String("~")) return QStringLiteral("~");
    if (path.startsWith(QLatin1String("~/"))) return QStringLiteral("~/") + shellQuote(path.mid(2));
    return shellQuote(path);
}

QStringList sshCommandLine(const RemoteLocation& location, const QString& remoteCommand)
{
    QStringList line = sshProgramAndOptions();
    line << QStringLiteral("-o") << QStringLiteral("BatchMode=yes") << QStringLiteral("-o")
         << QStringLiteral("ConnectTimeout=%1").arg(kConnectTimeoutSeconds) << QStringLiteral("-T");
    if (location.port() > 0) line << QStringLiteral("-p") << QString::number(location.port());
    if (!location.user().isEmpty()) line << QStringLiteral("-l") << location.user();
    // "--": a host name can never be taken for an option.
    line << QStringLiteral("--") << location.host() << remoteCommand;
    return line;
}

SshFailure classifySshFailure(int exitCode, const QString& stdErr)
{
    if (exitCode == -1) return SshFailure::ClientMissing;
    if (exitCode != kSshErrorExit) return exitCode == 0 ? SshFailure::None : SshFailure::Other;
    if (mentions(stdErr,
            {"Host key verification failed", "host key is known", "IDENTIFICATION HAS CHANGED",
                "No matching host key"}))
        return SshFailure::HostKey;
    if (mentions(stdErr, {"Permission denied", "Too many authentication failures", "no more authentication"}))
        return SshFailure::Authentication;
    if (mentions(stdErr,
            {"Could not resolve hostname", "Connection refused", "timed out", "No route to host",
                "Network is unreachable", "Connection closed by", "Connection reset",
                "kex_exchange_identification"}))
        return SshFailure::Unreachable;
    return SshFailure::Other;
}

QString describeSshFailure(SshFailure failure, const RemoteLocation& location, const QString& stdErr)
{
    const QString endpoint = location.endpoint();
    switch (failure) {
    case SshFailure::None:
        return {};
    case SshFailure::Unreachable:
        return QStringLiteral("Cannot reach %1 over SSH (%2); check the host name and port and that the "
                              "server is up.")
            .arg(endpoint, unreachableDetail(stdErr));
    case SshFailure::Authentication:
        return QStringLiteral("Authentication failed on %1: the server accepted none of your SSH keys; add "
                              "your public key to its ~/.ssh/authorized_keys or load the key into ssh-agent "
                              "(Sightline never asks for passwords).")
            .arg(endpoint);
    case SshFailure::HostKey:
        return QStringLiteral("The host key of %1 is not in your known_hosts or has changed; run 'ssh %1' "
                              "once in a terminal to check and accept it.")
            .arg(endpoint);
    case SshFailure::ClientMissing:
        return QStringLiteral("The OpenSSH client 'ssh' could not be started; install it (apt install "
                              "openssh-client) or set SIGHTLINE_SSH_COMMAND.");
    case SshFailure::Other:
        break;
    }
    const QString detail = lastLine(stdErr);
    return detail.isEmpty()
        ? QStringLiteral("The SSH command on %1 failed; try 'ssh %1' in a terminal to see why.").arg(endpoint)
        : QStringLiteral("The SSH command on %1 failed: %2").arg(endpoint, detail);
}

SshCommand::SshCommand(QObject* parent)
    : QObject(parent)
{ }

SshCommand::~SshCommand()
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(2000);
    }
}

void SshCommand::start(const RemoteLocation& location, const QString& remoteCommand, Output output)
{
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
        m_process->waitForFinished(2000);
        m_process->deleteLater();
    }
    m_outputMode = output;
    m_output.clear();
    m_stdErr.clear();
    m_exitCode = -1;
    m_done = false;
    m_process = new QProcess(this);
    connect(m_process, &QProcess::readyReadStandardOutput, this, &SshCommand::onReadyRead);
    connect(m_process, &QProcess::readyReadStandardError, this,
        [this] { m_stdErr += m_process->readAllStandardError(); });
    connect(m_process, &QProcess::finished, this, &SshCommand::onFinished);
    connect(m_process, &QProcess::errorOccurred, this, &SshCommand::onError);
    QStringList line = sshCommandLine(location, remoteCommand);
    const QString program = line.takeFirst();
    m_process->setStandardInputFile(QProcess::nullDevice());
    m_process->start(program, line);
}

void SshCommand::cancel()
{
    if (m_done) return;
    m_done = true;
    if (m_process) {
        m_process->disconnect(this);
        m_process->kill();
    }
    emit cancelled();
}

bool SshCommand::isRunning() const
{
    return m_process && !m_done;
}

void SshCommand::onReadyRead()
{
    const QByteArray bytes = m_process->readAllStandardOutput();
    if (m_outputMode == Output::Collect)
        m_output += bytes;
    else if (!bytes.isEmpty())
        emit outputChunk(bytes);
}

void SshCommand::onFinished(int exitCode, QProcess::ExitStatus status)
{
    if (m_done) return;
    onReadyRead();
    m_stdErr += m_process->readAllStandardError();
    m_done = true;
    m_exitCode = status == QProcess::NormalExit ? exitCode : -2;
    emit finished();
}

void SshCommand::onError(QProcess::ProcessError error)
{
    if (error != QProcess::FailedToStart || m_done) return;
    m_done = true;
    m_exitCode = -1;
    emit finished();
}

} // namespace sightline::ui
