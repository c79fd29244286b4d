// RemoteFetch over SSH: `find -printf` describes the remote file (type, size, modification
// time); an unchanged file already in the cache is used as is; otherwise `cat` streams it into
// the cache with progress against the size find reported.
#pragma once

#include "app/ui/remote/remote_fetch.h"
#include "app/ui/remote/remote_listing.h"
#include "model/common/result.h"

namespace sightline::ui {

class SshCommand;

class SshFetch : public RemoteFetch
{
    Q_OBJECT
public:
    SshFetch(const RemoteLocation& location, const RemoteCache& cache, QObject* parent = nullptr);
    ~SshFetch() override;

    void start() override;

protected:
    void abortTransfer() override;

private:
    void onDescribed();
    void onCopied();
    // Success, or the sentence for a failed ssh run.
    Status outcomeOf(const SshCommand& command) const;

    SshCommand* m_describe = nullptr;
    SshCommand* m_copy = nullptr;
    RemoteVersion m_remote;
};

} // namespace sightline::ui
