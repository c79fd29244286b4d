// Downloading one remote report into the RemoteCache, with progress and cancel: over SSH
// (ssh_fetch.cpp: describe the file with find, then stream it with cat) or HTTP(S)
// (http_fetch.cpp: Qt Network, conditional GET). An unchanged remote file is not downloaded
// again: same size and modification time over SSH, ETag / Last-Modified (HTTP 304) over HTTP.
// Invariants: `finished` is emitted exactly once per start(), cancel() included (Cancelled);
// the cache only ever holds complete copies; a file whose first bytes are not a report or an
// importable trace is refused without downloading the rest; every failure is one sentence.
#pragma once

#include "app/ui/remote/remote_cache.h"
#include "app/ui/remote/remote_location.h"

#include <QFile>
#include <QObject>
#include <memory>

namespace sightline::ui {

struct FetchOutcome
{
    enum class Status { Done, Failed, Cancelled };
    Status status = Status::Failed;
    QString localPath; // Done: the complete local copy
    QString error; // Failed: one sentence
    bool fromCache = false; // Done: the remote file was unchanged, nothing was downloaded
    qint64 bytesDownloaded = 0;
};

class RemoteFetch : public QObject
{
    Q_OBJECT
public:
    // The fetcher for the location's scheme.
    static std::unique_ptr<RemoteFetch> create(
        const RemoteLocation& location, const RemoteCache& cache = RemoteCache(), QObject* parent = nullptr);
    ~RemoteFetch() override;

    const RemoteLocation& location() const { return m_location; }
    virtual void start() = 0; // once
    void cancel();
    bool isFinished() const { return m_finished; }

signals:
    void stateChanged(const QString& text); // "Connecting to host…", "Downloading…"
    void progressed(qint64 bytesDone, qint64 bytesTotal); // total -1 when unknown
    void finished(const sightline::ui::FetchOutcome& outcome);

protected:
    RemoteFetch(const RemoteLocation& location, const RemoteCache& cache, QObject* parent);

    virtual void abortTransfer() = 0;

    const RemoteCache& cache() const { return m_cache; }
    // Opens the .part file; false after finishing Failed.
    bool beginDownload(qint64 expectedSize);
    // Appends a chunk, checking the first bytes; false after finishing Failed.
    bool writeChunk(const QByteArray& bytes);
    qint64 bytesWritten() const { return m_written; }
    // Checks the copy is complete, moves it into the cache and finishes Done.
    void completeDownload(const RemoteVersion& version);
    void finishFromCache();
    void finishFailed(const QString& error);
    QString where() const; // the location as typed, for messages

private:
    bool checkLooksLikeTrace();
    void emitProgress(bool force);
    void finish(FetchOutcome outcome);

    RemoteLocation m_location;
    RemoteCache m_cache;
    QFile m_partial;
    qint64 m_expected = -1;
    qint64 m_written = 0;
    bool m_sniffed = false;
    int m_lastPermille = -1;
    qint64 m_lastProgressBytes = 0;
    bool m_finished = false;
};

} // namespace sightline::ui
