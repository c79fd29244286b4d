#include "app/ui/remote/remote_location.h"

#include <QFileInfo>
#include <QRegularExpression>

namespace sightline::ui {

namespace {

const QString kForms = QStringLiteral(
    "use ssh://[user@]host[:port]/path/file.rep, [user@]host:path/file.rep or https://host/path/file.rep.");

// [user@]host:path, where host is a name, an address, or [an IPv6 address].
const QRegularExpression& scpPattern()
{
    static const QRegularExpression pattern(
        QStringLiteral("^(?:([^@/:\\s]+)@)?(\\[[0-9A-Fa-f:.%]+\\]|[^:/@\\s\\[\\]]+):(.*)$"));
    return pattern;
}

bool hasScheme(const QString& text, const char* scheme)
{
    return text.startsWith(QLatin1String(scheme), Qt::CaseInsensitive);
}

std::optional<RemoteLocation> fail(QString* error, const QString& sentence)
{
    if (error) *error = sentence;
    return std::nullopt;
}

QString bracketed(const QString& host)
{
    return host.contains(QLatin1Char(':')) ? QStringLiteral("[%1]").arg(host) : host;
}

// "/~/data/x.rep" in an ssh:// URL means "~/data/x.rep", as git reads it.
QString sshUrlPathToShellPath(const QString& urlPath)
{
    if (urlPath == QLatin1String("/~")) return QStringLiteral("~");
    if (urlPath.startsWith(QLatin1String("/~/"))) return urlPath.mid(1);
    return urlPath;
}

QString shellPathToSshUrlPath(const QString& path)
{
    if (path.isEmpty()) return QStringLiteral("/~");
    if (path.startsWith(QLatin1Char('/'))) return path;
    if (path == QLatin1String("~") || path.startsWith(QLatin1String("~/"))) return QLatin1Char('/') + path;
    return QStringLiteral("/~/") + path; // relative: to the home folder
}

} // namespace

std::optional<RemoteLocation> RemoteLocation::parse(const QString& typed, QString* error)
{
    const QString text = typed.trimmed();
    if (text.isEmpty()) return fail(error, QStringLiteral("Type a remote location; ") + kForms);
    RemoteLocation location;
    const bool ssh = hasScheme(text, "ssh://");
    const bool http = hasScheme(text, "http://");
    const bool https = hasScheme(text, "https://");
    if (ssh || http || https) {
        const QUrl url(text, QUrl::TolerantMode);
        if (!url.isValid() || url.host().isEmpty())
            return fail(error, QStringLiteral("'%1' has no valid host name; ").arg(text) + kForms);
        if (!url.password().isEmpty())
            return fail(error,
                QStringLiteral("'%1' contains a password, which Sightline never stores; remove it and use an "
                               "SSH key or the agent instead.")
                    .arg(url.toString(QUrl::RemovePassword)));
        if (!url.query().isEmpty() && ssh)
            return fail(error,
                QStringLiteral("'%1' has a '?' query, which an ssh:// location cannot carry; ").arg(text)
                    + kForms);
        location.m_scheme = ssh ? Scheme::Ssh : (http ? Scheme::Http : Scheme::Https);
        location.m_user = url.userName(QUrl::FullyDecoded);
        location.m_host = url.host(QUrl::FullyDecoded);
        location.m_port = url.port(-1);
        if (ssh) {
            location.m_path = sshUrlPathToShellPath(url.path(QUrl::FullyDecoded));
        } else {
            location.m_url = url.adjusted(QUrl::RemoveFragment);
            location.m_path = url.path(QUrl::FullyDecoded);
        }
        return location;
    }
    if (text.contains(QLatin1String("://")))
        return fail(error, QStringLiteral("'%1' uses a scheme Sightline cannot open; ").arg(text) + kForms);
    const auto match = scpPattern().match(text);
    if (!match.hasMatch())
        return fail(error, QStringLiteral("'%1' is not a remote location; ").arg(text) + kForms);
    location.m_scheme = Scheme::Ssh;
    location.m_scpStyle = true;
    location.m_user = match.captured(1);
    location.m_host = match.captured(2);
    if (location.m_host.startsWith(QLatin1Char('[')))
        location.m_host = location.m_host.mid(1, location.m_host.size() - 2);
    location.m_path = match.captured(3);
    return location;
}

QUrl RemoteLocation::url() const
{
    return m_url;
}

QString RemoteLocation::endpoint() const
{
    QString text = m_user.isEmpty() ? bracketed(m_host) : m_user + QLatin1Char('@') + bracketed(m_host);
    if (m_port > 0) text += QLatin1Char(':') + QString::number(m_port);
    return text;
}

QString RemoteLocation::fileName() const
{
    const int slash = m_path.lastIndexOf(QLatin1Char('/'));
    const QString last = m_path.mid(slash + 1);
    return last == QLatin1String("~") ? QString() : last;
}

QString RemoteLocation::toString() const
{
    if (m_scheme != Scheme::Ssh) return m_url.toString();
    if (m_scpStyle)
        return (m_user.isEmpty() ? QString() : m_user + QLatin1Char('@')) + bracketed(m_host)
            + QLatin1Char(':') + m_path;
    QUrl url;
    url.setScheme(QStringLiteral("ssh"));
    url.setUserName(m_user, QUrl::DecodedMode);
    url.setHost(m_host);
    url.setPort(m_port);
    url.setPath(shellPathToSshUrlPath(m_path), QUrl::DecodedMode);
    return url.toString();
}

RemoteLocation RemoteLocation::withPath(const QString& path) const
{
    RemoteLocation other = *this;
    other.m_path = path;
    if (m_scheme != Scheme::Ssh) other.m_url.setPath(path, QUrl::DecodedMode);
    return other;
}

bool looksLikeRemoteLocation(const QString& typed)
{
    const QString text = typed.trimmed();
    if (text.isEmpty() || QFileInfo::exists(text)) return false;
    if (hasScheme(text, "ssh://") || hasScheme(text, "http://") || hasScheme(text, "https://")) return true;
    if (text.startsWith(QLatin1Char('/')) || text.startsWith(QLatin1Char('.'))
        || text.contains(QLatin1String("://")))
        return false;
    return scpPattern().match(text).hasMatch();
}

} // namespace sightline::ui
