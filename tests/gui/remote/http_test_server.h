// A small HTTP/1.1 file server on 127.0.0.1 for the remote tests, on QTcpServer: GET of files
// under a root folder, with an ETag (size and modification time) and Last-Modified, 304 Not
// Modified for a matching If-None-Match or If-Modified-Since, 404 for a missing file, 401 for
// anything under /private/, bodies streamed in chunks as the socket drains. It counts the
// bodies it sent and the 304s it answered, so tests can tell a download from a cache hit.
// Invariant: one request per connection (the server closes it after the response).
#pragma once

#include <QHash>
#include <QObject>
#include <QString>

class QFile;
class QTcpServer;
class QTcpSocket;

namespace sightline::test {

class HttpTestServer : public QObject
{
    Q_OBJECT
public:
    explicit HttpTestServer(QString root, QObject* parent = nullptr);
    ~HttpTestServer() override;

    bool listen(); // on 127.0.0.1, a free port
    int port() const;
    QString url(const QString& path) const; // http://127.0.0.1:port/<path>

    void setSendEtag(bool send) { m_sendEtag = send; } // off: only Last-Modified validates
    int bodiesSent() const { return m_bodies; }
    int notModifiedSent() const { return m_notModified; }

private:
    struct Transfer;
    void onConnection();
    void onReadable(QTcpSocket* socket);
    void respond(QTcpSocket* socket, const QByteArray& request);
    void sendMore(QTcpSocket* socket);
    void sendSimple(
        QTcpSocket* socket, int status, const QByteArray& reason, const QByteArray& extraHeaders = {});

    QString m_root;
    QTcpServer* m_server = nullptr;
    QHash<QTcpSocket*, QByteArray> m_requests;
    QHash<QTcpSocket*, QFile*> m_bodiesInFlight;
    bool m_sendEtag = true;
    int m_bodies = 0;
    int m_notModified = 0;
};

} // namespace sightline::test
