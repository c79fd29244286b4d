#include "app/ui/remote/http_fetch.h"

#include <QNetworkAccessManager>
#include <QNetworkRequest>

namespace sightline::ui {

namespace {

constexpr int kTransferTimeoutMs = 30000; // no byte for this long: the transfer fails
constexpr int kHttpNotModified = 304;

} // namespace

HttpFetch::HttpFetch(const RemoteLocation& location, const RemoteCache& cache, QObject* parent)
    : RemoteFetch(location, cache, parent)
    , m_network(new QNetworkAccessManager(this))
{ }

HttpFetch::~HttpFetch()
{
    if (m_reply) {
        m_reply->disconnect(this);
        m_reply->abort();
        m_reply->deleteLater();
    }
}

void HttpFetch::start()
{
    QNetworkRequest request(location().url());
    request.setAttribute(QNetworkRequest::RedirectPolicyAttribute, QNetworkRequest::NoLessSafeRedirectPolicy);
    request.setTransferTimeout(kTransferTimeoutMs);
    request.setHeader(QNetworkRequest::UserAgentHeader,
        QStringLiteral("sightline-ui/%1").arg(QStringLiteral(SIGHTLINE_VERSION)));
    // The raw bytes, as on the server: a .json.gz must stay compressed.
    request.setRawHeader("Accept-Encoding", "identity");
    if (const auto cached = cache().cachedVersion(location())) {
        if (!cached->etag.isEmpty()) request.setRawHeader("If-None-Match", cached->etag.toUtf8());
        if (!cached->lastModified.isEmpty())
            request.setRawHeader("If-Modified-Since", cached->lastModified.toUtf8());
    }
    emit stateChanged(tr("Connecting to %1…").arg(location().host()));
    m_reply = m_network->get(request);
    connect(m_reply, &QNetworkReply::metaDataChanged, this, &HttpFetch::onMetaData);
    connect(m_reply, &QNetworkReply::readyRead, this, &HttpFetch::onReadyRead);
    connect(m_reply, &QNetworkReply::finished, this, &HttpFetch::onFinished);
}

void HttpFetch::abortTransfer()
{
    if (!m_reply) return;
    m_reply->disconnect(this);
    m_reply->abort();
    m_reply->deleteLater();
    m_reply = nullptr;
}

void HttpFetch::onMetaData()
{
    const int status = m_reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (m_downloading || status == 0) return;
    if (m_reply->attribute(QNetworkRequest::RedirectionTargetAttribute).isValid()) return; // followed
    if (status == kHttpNotModified) {
        m_notModified = true;
        return;
    }
    if (status < 200 || status >= 300) return; // the error arrives in onFinished
    m_remote.etag = QString::fromUtf8(m_reply->rawHeader("ETag"));
    m_remote.lastModified = QString::fromUtf8(m_reply->rawHeader("Last-Modified"));
    const QVariant length = m_reply->header(QNetworkRequest::ContentLengthHeader);
    m_remote.size = length.isValid() ? length.toLongLong() : -1;
    m_downloading = beginDownload(m_remote.size);
}

void HttpFetch::onReadyRead()
{
    if (!m_downloading) return;
    // writeChunk may abort the transfer (not a report), which deletes the reply later.
    while (m_reply && m_reply->bytesAvailable() > 0) {
        if (!writeChunk(m_reply->read(1 << 20))) return;
    }
}

void HttpFetch::onFinished()
{
    QNetworkReply* reply = m_reply;
    m_reply = nullptr;
    reply->deleteLater();
    if (isFinished()) return;
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    if (m_notModified || status == kHttpNotModified) {
        finishFromCache();
        return;
    }
    if (reply->error() != QNetworkReply::NoError) {
        finishFailed(describeError(reply->error(), status));
        return;
    }
    if (!m_downloading) {
        onMetaData();
        if (!m_downloading) {
            if (!isFinished()) finishFailed(describeError(QNetworkReply::UnknownServerError, status));
            return;
        }
    }
    m_reply = reply;
    onReadyRead();
    m_reply = nullptr;
    completeDownload(m_remote);
}

QString HttpFetch::describeError(QNetworkReply::NetworkError error, int httpStatus) const
{
    const QString host = location().host();
    const QString status = httpStatus > 0 ? QStringLiteral("HTTP %1").arg(httpStatus) : QString();
    switch (error) {
    case QNetworkReply::ConnectionRefusedError:
    case QNetworkReply::HostNotFoundError:
    case QNetworkReply::TimeoutError:
    case QNetworkReply::RemoteHostClosedError:
    case QNetworkReply::TemporaryNetworkFailureError:
    case QNetworkReply::NetworkSessionFailedError:
    case QNetworkReply::UnknownNetworkError:
    case QNetworkReply::ProxyConnectionRefusedError:
    case QNetworkReply::ProxyNotFoundError:
    case QNetworkReply::ProxyTimeoutError:
    case QNetworkReply::OperationCanceledError: { // our own cancel never gets here: the transfer timeout
        QString why = QStringLiteral("the connection failed");
        if (error == QNetworkReply::HostNotFoundError) why = QStringLiteral("the host name is unknown");
        if (error == QNetworkReply::ConnectionRefusedError)
            why = QStringLiteral("the connection was refused");
        if (error == QNetworkReply::TimeoutError) why = QStringLiteral("the connection timed out");
        if (error == QNetworkReply::OperationCanceledError)
            why = QStringLiteral("nothing arrived for %1 s").arg(kTransferTimeoutMs / 1000);
        return QStringLiteral("Cannot reach %1 (%2); check the address and port and that the server is up.")
            .arg(host, why);
    }
    case QNetworkReply::AuthenticationRequiredError:
    case QNetworkReply::ContentAccessDenied:
    case QNetworkReply::ProxyAuthenticationRequiredError:
        return QStringLiteral(
            "Authentication failed on %1 (%2): the server refuses access to %3 without "
            "credentials, which Sightline does not send; copy the file another way or ask for "
            "a public link.")
            .arg(host, status.isEmpty() ? QStringLiteral("access denied") : status, location().path());
    case QNetworkReply::ContentNotFoundError:
    case QNetworkReply::ContentGoneError:
        return QStringLiteral("No such file: %1 does not exist on the server (%2); check the address.")
            .arg(location().toString(), status);
    case QNetworkReply::SslHandshakeFailedError:
        return QStringLiteral("The secure connection to %1 failed (its certificate is not trusted or not "
                              "valid); check the address or install the server's certificate authority.")
            .arg(host);
    default:
        break;
    }
    return QStringLiteral("Downloading %1 failed (%2).")
        .arg(location().toString(),
            status.isEmpty() ? QStringLiteral("network error %1").arg(int(error)) : status);
}

} // namespace sightline::ui
