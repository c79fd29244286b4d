// The local copies of remote reports, under QStandardPaths::CacheLocation/remote: one folder per
// location (named by a hash of it) holding the file under its remote name and a sidecar
// "<name>.source.json" with the remote version it was copied from (size and modification time
// over SSH; ETag and Last-Modified over HTTP). Invariants: a copy is only ever complete (a
// download goes to "<name>.part" and is renamed at the end, then the sidecar is written), and a
// cached version is reported only when the copy exists with the size the sidecar records.
#pragma once

#include "app/ui/remote/remote_location.h"

#include <QString>
#include <optional>

namespace sightline::ui {

struct RemoteVersion
{
    qint64 size = -1; // bytes; -1 when the server did not say
    QString mtime; // SSH: seconds since the epoch as the server printed them
    QString etag; // HTTP
    QString lastModified; // HTTP, as the server sent it

    // Same size and mtime (SSH), or the same validators (HTTP).
    bool sameAs(const RemoteVersion& other) const;
};

class RemoteCache
{
public:
    explicit RemoteCache(QString root = defaultRoot());
    static QString defaultRoot();

    const QString& root() const { return m_root; }
    QString localPath(const RemoteLocation& location) const;
    QString partialPath(const RemoteLocation& location) const; // the download in progress

    // The version of the complete local copy, if there is one.
    std::optional<RemoteVersion> cachedVersion(const RemoteLocation& location) const;

    // Creates the location's folder; "" or the error sentence.
    QString prepare(const RemoteLocation& location) const;
    // Moves the finished download into place and records its version; "" or the error sentence.
    QString commit(const RemoteLocation& location, const RemoteVersion& version) const;
    void discardPartial(const RemoteLocation& location) const;

private:
    QString folder(const RemoteLocation& location) const;
    QString sidecarPath(const RemoteLocation& location) const;

    QString m_root;
};

} // namespace sightline::ui
