#include "app/ui/remote/remote_cache.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QSaveFile>
#include <QStandardPaths>

namespace sightline::ui {

namespace {

// The remote name, made safe as a local file name ("download" when the URL names no file).
QString localName(const RemoteLocation& location)
{
    QString name = location.fileName();
    name.replace(QLatin1Char('/'), QLatin1Char('_'));
    if (name.isEmpty() || name == QLatin1String(".") || name == QLatin1String(".."))
        name = QStringLiteral("download");
    return name;
}

} // namespace

bool RemoteVersion::sameAs(const RemoteVersion& other) const
{
    if (!etag.isEmpty() || !other.etag.isEmpty()) return etag == other.etag;
    if (!lastModified.isEmpty() || !other.lastModified.isEmpty())
        return lastModified == other.lastModified && size == other.size;
    return size >= 0 && size == other.size && !mtime.isEmpty() && mtime == other.mtime;
}

RemoteCache::RemoteCache(QString root)
    : m_root(std::move(root))
{ }

QString RemoteCache::defaultRoot()
{
    return QStandardPaths::writableLocation(QStandardPaths::CacheLocation) + QStringLiteral("/remote");
}

QString RemoteCache::folder(const RemoteLocation& location) const
{
    const QByteArray hash
        = QCryptographicHash::hash(location.toString().toUtf8(), QCryptographicHash::Sha256).toHex().left(20);
    return m_root + QLatin1Char('/') + QString::fromLatin1(hash);
}

QString RemoteCache::localPath(const RemoteLocation& location) const
{
    return folder(location) + QLatin1Char('/') + localName(location);
}

QString RemoteCache::partialPath(const RemoteLocation& location) const
{
    return localPath(location) + QStringLiteral(".part");
}

QString RemoteCache::sidecarPath(const RemoteLocation& location) const
{
    return localPath(location) + QStringLiteral(".source.json");
}

std::optional<RemoteVersion> RemoteCache::cachedVersion(const RemoteLocation& location) const
{
    QFile sidecar(sidecarPath(location));
    if (!sidecar.open(QIODevice::ReadOnly)) return std::nullopt;
    const QJsonObject json = QJsonDocument::fromJson(sidecar.readAll()).object();
    if (json.value(QStringLiteral("location")).toString() != location.toString()) return std::nullopt;
    RemoteVersion version;
    version.size = qint64(json.value(QStringLiteral("size")).toDouble(-1));
    version.mtime = json.value(QStringLiteral("mtime")).toString();
    version.etag = json.value(QStringLiteral("etag")).toString();
    version.lastModified = json.value(QStringLiteral("lastModified")).toString();
    const QFileInfo copy(localPath(location));
    if (!copy.isFile() || (version.size >= 0 && copy.size() != version.size)) return std::nullopt;
    return version;
}

QString RemoteCache::prepare(const RemoteLocation& location) const
{
    if (QDir().mkpath(folder(location))) return {};
    return QStringLiteral(
        "Cannot create the download cache folder %1; check that it is writable and the disk "
        "has room.")
        .arg(folder(location));
}

QString RemoteCache::commit(const RemoteLocation& location, const RemoteVersion& version) const
{
    const QString target = localPath(location);
    QFile::remove(sidecarPath(location));
    QFile::remove(target);
    if (!QFile::rename(partialPath(location), target))
        return QStringLiteral("Cannot move the downloaded file into place at %1; check the cache folder.")
            .arg(target);
    QJsonObject json;
    json.insert(QStringLiteral("location"), location.toString());
    json.insert(QStringLiteral("size"), double(version.size));
    json.insert(QStringLiteral("mtime"), version.mtime);
    json.insert(QStringLiteral("etag"), version.etag);
    json.insert(QStringLiteral("lastModified"), version.lastModified);
    QSaveFile sidecar(sidecarPath(location));
    if (!sidecar.open(QIODevice::WriteOnly) || sidecar.write(QJsonDocument(json).toJson()) < 0
        || !sidecar.commit())
        return QStringLiteral("Cannot write %1; check that the cache folder is writable.")
            .arg(sidecarPath(location));
    return {};
}

void RemoteCache::discardPartial(const RemoteLocation& location) const
{
    QFile::remove(partialPath(location));
}

} // namespace sightline::ui
