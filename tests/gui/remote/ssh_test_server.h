// A real OpenSSH server on loopback for the remote tests: /usr/sbin/sshd -D on 127.0.0.1 at a
// free high port, with a temporary host key, one authorized test key, StrictModes and PAM off,
// running as the current user. Clients use it through SIGHTLINE_SSH_COMMAND="ssh -F <config>",
// a config naming the test key and a known_hosts file that holds the temporary host key, so
// the user's own ~/.ssh is never read or changed. Invariant: the server is stopped when the
// object is destroyed, and dies with the test process even when that crashes.
#pragma once

#include <QProcess>
#include <QString>
#include <filesystem>

namespace sightline::test {

class SshTestServer
{
public:
    explicit SshTestServer(const std::filesystem::path& folder);
    ~SshTestServer();
    SshTestServer(const SshTestServer&) = delete;
    SshTestServer& operator=(const SshTestServer&) = delete;

    // Empty when running; else why not (the tests skip when sshd is not installed).
    const QString& problem() const { return m_problem; }
    bool sshdMissing() const { return m_sshdMissing; }
    int port() const { return m_port; }
    QString user() const;

    // ssh://user@127.0.0.1:port/<absolute path>
    QString location(const std::filesystem::path& remotePath) const;

    // The client settings: the authorized key, or a key the server does not know.
    QString clientCommand() const; // "ssh -F <config>"
    QString strangerClientCommand() const;
    void useAuthorizedClient() const; // sets SIGHTLINE_SSH_COMMAND
    void useStrangerClient() const;

private:
    bool start();

    std::filesystem::path m_folder;
    QProcess m_sshd;
    int m_port = 0;
    QString m_problem;
    bool m_sshdMissing = false;
};

// A TCP port on 127.0.0.1 that nothing listens on (bound, then released).
int unusedLoopbackPort();

} // namespace sightline::test
