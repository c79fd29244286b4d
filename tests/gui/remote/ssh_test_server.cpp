#include "ssh_test_server.h"

#include <QDir>
#include <QFile>
#include <QTcpServer>
#include <QTcpSocket>
#include <QThread>
#include <csignal>
#include <fstream>
#include <pwd.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sightline::test {

namespace {

const char* const kSshd = "/usr/sbin/sshd";

QString pathText(const std::filesystem::path& path)
{
    return QString::fromStdString(path.string());
}

// Runs ssh-keygen for a new ed25519 key without a passphrase; "" or the problem.
QString makeKey(const std::filesystem::path& file)
{
    std::filesystem::remove(file);
    std::filesystem::remove(file.string() + ".pub");
    QProcess keygen;
    keygen.start(QStringLiteral("ssh-keygen"),
        {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"), QStringLiteral("-N"),
            QString(), QStringLiteral("-C"), QStringLiteral("sightline-test"), QStringLiteral("-f"),
            pathText(file)});
    if (!keygen.waitForFinished(30000) || keygen.exitCode() != 0)
        return QStringLiteral("ssh-keygen failed: ") + QString::fromLocal8Bit(keygen.readAllStandardError());
    return {};
}

QByteArray readAll(const std::filesystem::path& file)
{
    QFile in(pathText(file));
    return in.open(QIODevice::ReadOnly) ? in.readAll().trimmed() : QByteArray();
}

void writeText(const std::filesystem::path& file, const std::string& text)
{
    std::ofstream(file, std::ios::trunc) << text;
    ::chmod(file.c_str(), 0600);
}

std::string clientConfig(const std::filesystem::path& folder, const std::string& key, const QString& user)
{
    return "Host *\n"
           "  IdentityFile "
        + (folder / key).string()
        + "\n"
          "  IdentitiesOnly yes\n"
          "  IdentityAgent none\n"
          "  UserKnownHostsFile "
        + (folder / "known_hosts").string()
        + "\n"
          "  GlobalKnownHostsFile /dev/null\n"
          "  StrictHostKeyChecking yes\n"
          "  PasswordAuthentication no\n"
          "  User "
        + user.toStdString() + "\n";
}

} // namespace

int unusedLoopbackPort()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0)) return 0;
    const int port = probe.serverPort();
    probe.close();
    return port;
}

SshTestServer::SshTestServer(const std::filesystem::path& folder)
    : m_folder(folder)
{
    if (!QFile::exists(QString::fromLatin1(kSshd))) {
        m_sshdMissing = true;
        m_problem
            = QStringLiteral("%1 is not installed (apt install openssh-server); the SSH tests are skipped.")
                  .arg(QString::fromLatin1(kSshd));
        return;
    }
    for (int attempt = 0; attempt < 3 && !start(); ++attempt) { }
}

SshTestServer::~SshTestServer()
{
    if (m_sshd.state() != QProcess::NotRunning) {
        m_sshd.kill();
        m_sshd.waitForFinished(5000);
    }
}

QString SshTestServer::user() const
{
    const passwd* entry = getpwuid(getuid());
    return entry ? QString::fromLocal8Bit(entry->pw_name) : qEnvironmentVariable("USER");
}

bool SshTestServer::start()
{
    for (const char* key : {"host_key", "client_key", "stranger_key"})
        if (const QString error = makeKey(m_folder / key); !error.isEmpty()) {
            m_problem = error;
            return true; // no point in retrying
        }
    // sshd started by root needs its privilege separation folder (Debian creates it at boot).
    if (geteuid() == 0 && !QDir(QStringLiteral("/run/sshd")).exists()) {
        ::mkdir("/run/sshd", 0755);
    }
    m_port = unusedLoopbackPort();
    const std::filesystem::path config = m_folder / "sshd_config";
    writeText(m_folder / "authorized_keys", readAll(m_folder / "client_key.pub").toStdString() + "\n");
    writeText(config,
        "Port " + std::to_string(m_port) + "\nListenAddress 127.0.0.1\nHostKey "
            + (m_folder / "host_key").string() + "\nAuthorizedKeysFile "
            + (m_folder / "authorized_keys").string() + "\nAllowUsers " + user().toStdString()
            + "\nPubkeyAuthentication yes\nPasswordAuthentication no\nKbdInteractiveAuthentication no\n"
              "UsePAM no\nStrictModes no\nPermitRootLogin prohibit-password\nPidFile "
            + (m_folder / "sshd.pid").string() + "\nLogLevel ERROR\n");
    const QList<QByteArray> hostKey = readAll(m_folder / "host_key.pub").split(' ');
    writeText(m_folder / "known_hosts",
        "[127.0.0.1]:" + std::to_string(m_port) + " " + hostKey.value(0).toStdString() + " "
            + hostKey.value(1).toStdString() + "\n");
    writeText(m_folder / "ssh_config", clientConfig(m_folder, "client_key", user()));
    writeText(m_folder / "stranger_config", clientConfig(m_folder, "stranger_key", user()));

    m_sshd.setProcessChannelMode(QProcess::MergedChannels);
    // sshd ends with the test even when the test crashes and no destructor runs.
    m_sshd.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGKILL); });
    m_sshd.start(QString::fromLatin1(kSshd),
        {QStringLiteral("-D"), QStringLiteral("-e"), QStringLiteral("-f"), pathText(config)});
    if (!m_sshd.waitForStarted(10000)) {
        m_problem = QStringLiteral("sshd did not start: ") + m_sshd.errorString();
        return false;
    }
    // Ready once it greets a connection with its SSH banner.
    for (int i = 0; i < 100; ++i) {
        if (m_sshd.state() == QProcess::NotRunning) break;
        QTcpSocket socket;
        socket.connectToHost(QHostAddress::LocalHost, quint16(m_port));
        if (socket.waitForConnected(200) && socket.waitForReadyRead(2000)
            && socket.readAll().startsWith("SSH-")) {
            m_problem.clear();
            return true;
        }
        QThread::msleep(100);
    }
    m_sshd.kill();
    m_sshd.waitForFinished(5000);
    m_problem = QStringLiteral("sshd did not come up on port %1: %2")
                    .arg(m_port)
                    .arg(QString::fromLocal8Bit(m_sshd.readAll()).trimmed());
    return false;
}

QString SshTestServer::location(const std::filesystem::path& remotePath) const
{
    return QStringLiteral("ssh://%1@127.0.0.1:%2%3").arg(user()).arg(m_port).arg(pathText(remotePath));
}

QString SshTestServer::clientCommand() const
{
    return QStringLiteral("ssh -F ") + pathText(m_folder / "ssh_config");
}

QString SshTestServer::strangerClientCommand() const
{
    return QStringLiteral("ssh -F ") + pathText(m_folder / "stranger_config");
}

void SshTestServer::useAuthorizedClient() const
{
    qputenv("SIGHTLINE_SSH_COMMAND", clientCommand().toLocal8Bit());
}

void SshTestServer::useStrangerClient() const
{
    qputenv("SIGHTLINE_SSH_COMMAND", strangerClientCommand().toLocal8Bit());
}

} // namespace sightline::test
