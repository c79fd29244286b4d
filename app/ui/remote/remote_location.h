// Where a remote report lives, as the user types it: `ssh://[user@]host[:port]/path/file.rep`,
// the scp form `[user@]host:path` (a relative path starts in the user's home folder), or an
// `http://` / `https://` URL. Parsing never touches the network. Invariants: a parsed location
// has a non-empty host; toString() gives back a string that parses to the same location (in the
// style it was typed); an ssh path is either absolute, "~"-relative, or relative to the home
// folder, exactly as the remote shell will see it.
#pragma once

#include <QString>
#include <QUrl>
#include <optional>

namespace sightline::ui {

class RemoteLocation
{
public:
    enum class Scheme { Ssh, Http, Https };

    // The location, or nullopt with one sentence in `error` saying what to type instead.
    static std::optional<RemoteLocation> parse(const QString& text, QString* error = nullptr);

    Scheme scheme() const { return m_scheme; }
    bool isSsh() const { return m_scheme == Scheme::Ssh; }
    const QString& user() const { return m_user; } // empty: ssh's default (config or login name)
    const QString& host() const { return m_host; }
    int port() const { return m_port; } // -1: the default
    const QString& path() const { return m_path; } // ssh: as the remote shell sees it; http: the URL path
    QUrl url() const; // http and https only

    // "user@host" or "host", with ":port" when one was given: what ssh connects to, for messages.
    QString endpoint() const;
    QString fileName() const; // the last path component, "" for a folder location
    QString toString() const;

    // The same server with another path (in the same style); for the remote file browser.
    RemoteLocation withPath(const QString& path) const;

    bool operator==(const RemoteLocation& other) const { return toString() == other.toString(); }

private:
    Scheme m_scheme = Scheme::Ssh;
    bool m_scpStyle = false;
    QString m_user;
    QString m_host;
    int m_port = -1;
    QString m_path;
    QUrl m_url;
};

// True when `text` reads as a remote location rather than a local path: it has an ssh://,
// http:// or https:// scheme, or the scp form host:path with no '/' before the colon. A local
// file that exists is never taken for a remote one.
bool looksLikeRemoteLocation(const QString& text);

} // namespace sightline::ui
