#include "app/ui/remote/ssh_fetch.h"

#include "app/ui/remote/ssh_command.h"

namespace sightline::ui {

SshFetch::SshFetch(const RemoteLocation& location, const RemoteCache& cache, QObject* parent)
    : RemoteFetch(location, cache, parent)
    , m_describe(new SshCommand(this))
    , m_copy(new SshCommand(this))
{
    connect(m_describe, &SshCommand::finished, this, &SshFetch::onDescribed);
    connect(m_copy, &SshCommand::outputChunk, this, [this](const QByteArray& bytes) { writeChunk(bytes); });
    connect(m_copy, &SshCommand::finished, this, &SshFetch::onCopied);
}

SshFetch::~SshFetch() = default;

void SshFetch::start()
{
    if (location().fileName().isEmpty()) {
        finishFailed(
            QStringLiteral("%1 names a folder, not a file; add the report's file name or use Browse.")
                .arg(where()));
        return;
    }
    emit stateChanged(tr("Connecting to %1…").arg(location().endpoint()));
    m_describe->start(location(), describeFileCommand(location().path()));
}

void SshFetch::abortTransfer()
{
    m_describe->cancel();
    m_copy->cancel();
}

Status SshFetch::outcomeOf(const SshCommand& command) const
{
    const SshFailure failure = command.failure();
    if (failure == SshFailure::None) return {};
    return Status::failure(
        (failure != SshFailure::Other ? describeSshFailure(failure, location(), command.standardError())
                                      : describeRemotePathFailure(location(), command.standardError(), false))
            .toStdString());
}

void SshFetch::onDescribed()
{
    if (const Status described = outcomeOf(*m_describe); !described) {
        finishFailed(QString::fromStdString(described.error()));
        return;
    }
    const std::optional<RemoteEntry> entry
        = parseFileDescription(m_describe->collectedOutput(), location().fileName());
    if (!entry) {
        finishFailed(QStringLiteral("The description of %1 could not be read; the server's shell printed "
                                    "something unexpected (check its login scripts).")
                         .arg(where()));
        return;
    }
    if (entry->isFolder) {
        finishFailed(
            QStringLiteral("%1 is a folder, not a report; use Browse to pick a file in it.").arg(where()));
        return;
    }
    m_remote.size = entry->size;
    m_remote.mtime = entry->mtime;
    if (const auto cached = cache().cachedVersion(location()); cached && cached->sameAs(m_remote)) {
        finishFromCache();
        return;
    }
    if (!beginDownload(m_remote.size)) return;
    m_copy->start(location(), QStringLiteral("cat -- %1").arg(remotePathWord(location().path())),
        SshCommand::Output::Stream);
}

void SshFetch::onCopied()
{
    if (isFinished()) return;
    if (const Status copied = outcomeOf(*m_copy); !copied) {
        finishFailed(QString::fromStdString(copied.error()));
        return;
    }
    completeDownload(m_remote);
}

} // namespace sightline::ui
