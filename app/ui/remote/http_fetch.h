// RemoteFetch over HTTP and HTTPS with Qt Network: a conditional GET (If-None-Match with the
// cached ETag, If-Modified-Since with the cached Last-Modified) so that an unchanged file
// answers 304 and is not downloaded again; the body streams into the cache as it arrives.
// No credentials are ever sent or stored: a server asking for them is an authentication failure.
#pragma once

#include "app/ui/remote/remote_fetch.h"

#include <QNetworkReply>

class QNetworkAccessManager;

namespace sightline::ui {

class HttpFetch : public RemoteFetch
{
    Q_OBJECT
public:
    HttpFetch(const RemoteLocation& location, const RemoteCache& cache, QObject* parent = nullptr);
    ~HttpFetch() override;

    void start() override;

protected:
    void abortTransfer() override;

private:
    void onMetaData();
    void onReadyRead();
    void onFinished();
    QString describeError(QNetworkReply::NetworkError error, int httpStatus) const;

    QNetworkAccessManager* m_network = nullptr;
    QNetworkReply* m_reply = nullptr;
    bool m_downloading = false;
    bool m_notModified = false;
    RemoteVersion m_remote;
};

} // namespace sightline::ui
