// Listing a folder and describing one file on an SSH host, for the remote file browser and the
// download cache. Both run GNU find on the server (any Linux host has it): `find -L ... -printf`
// with NUL-separated records, so any file name survives. Invariants: entries are sorted folders
// first, then by name; only folders and files Sightline can open (.rep, .sqlite, .json,
// .json.gz) are listed; a failure is one sentence naming the host and the path.
#pragma once

#include "app/ui/remote/remote_location.h"

#include <QDateTime>
#include <QList>
#include <QObject>
#include <optional>

namespace sightline::ui {

class SshCommand;

struct RemoteEntry
{
    QString name;
    bool isFolder = false;
    qint64 size = 0;
    QString mtime; // seconds since the epoch as find prints it (fractional): compared as text
    QDateTime modified() const;
};

// True for the file names the viewer opens: .rep, .sqlite, .json and .json.gz.
bool isOpenableTraceName(const QString& name);

// The remote shell commands (exposed for tests).
QString listFolderCommand(const QString& path); // prints the absolute folder, then the entries
QString describeFileCommand(const QString& path);

// Parsers of those commands' output; nullopt when it is malformed.
struct RemoteFolder
{
    QString absolutePath;
    QList<RemoteEntry> entries; // filtered and sorted
};
std::optional<RemoteFolder> parseFolderListing(const QByteArray& output);
std::optional<RemoteEntry> parseFileDescription(const QByteArray& output, const QString& name);

// One sentence for a find/cd failure on the server (exit code not ssh's own 255).
QString describeRemotePathFailure(const RemoteLocation& location, const QString& stdErr, bool wantFolder);

// Asynchronous listing of one folder. `finished` is emitted once per start(), unless
// cancelled; `error` is empty on success.
class RemoteFolderListing : public QObject
{
    Q_OBJECT
public:
    explicit RemoteFolderListing(QObject* parent = nullptr);
    ~RemoteFolderListing() override;

    void start(const RemoteLocation& folder);
    void cancel();

signals:
    void finished(const sightline::ui::RemoteFolder& folder, const QString& error);

private:
    SshCommand* m_ssh = nullptr;
    RemoteLocation m_folder;
};

} // namespace sightline::ui
