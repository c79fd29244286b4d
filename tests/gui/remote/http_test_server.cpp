#include "http_test_server.h"

#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QLocale>
#include <QTcpServer>
#include <QTcpSocket>
#include <QTimeZone>
#include <QUrl>

namespace sightline::test {

namespace {

constexpr qint64 kChunk = 256 * 1024;

QByteArray httpDate(const QDateTime& time)
{
    return QLocale::c().toString(time.toUTC(), QStringLiteral("ddd, dd MMM yyyy HH:mm:ss 'GMT'")).toLatin1();
}

QByteArray headerValue(const QByteArray& request, const QByteArray& name)
{
    for (const QByteArray& line : request.split('\n')) {
        const int colon = line.indexOf(':');
        if (colon > 0 && line.left(colon).trimmed().toLower() == name.toLower())
            return line.mid(colon + 1).trimmed();
    }
    return {};
}

} // namespace

HttpTestServer::HttpTestServer(QString root, QObject* parent)
    : QObject(parent)
    , m_root(std::move(root))
    , m_server(new QTcpServer(this))
{
    connect(m_server, &QTcpServer::newConnection, this, &HttpTestServer::onConnection);
}

HttpTestServer::~HttpTestServer()
{
    qDeleteAll(m_bodiesInFlight);
}

bool HttpTestServer::listen()
{
    return m_server->listen(QHostAddress::LocalHost, 0);
}

int HttpTestServer::port() const
{
    return m_server->serverPort();
}

QString HttpTestServer::url(const QString& path) const
{
    return QStringLiteral("http://127.0.0.1:%1/%2").arg(port()).arg(path);
}

void HttpTestServer::onConnection()
{
    while (QTcpSocket* socket = m_server->nextPendingConnection()) {
        connect(socket, &QTcpSocket::readyRead, this, [this, socket] { onReadable(socket); });
        connect(socket, &QTcpSocket::bytesWritten, this, [this, socket] { sendMore(socket); });
        connect(socket, &QTcpSocket::disconnected, this, [this, socket] {
            m_requests.remove(socket);
            delete m_bodiesInFlight.take(socket);
            socket->deleteLater();
        });
    }
}

void HttpTestServer::onReadable(QTcpSocket* socket)
{
    QByteArray& request = m_requests[socket];
    request += socket->readAll();
    if (!request.contains("\r\n\r\n")) return;
    const QByteArray complete = request;
    request.clear();
    respond(socket, complete);
}

void HttpTestServer::sendSimple(
    QTcpSocket* socket, int status, const QByteArray& reason, const QByteArray& extraHeaders)
{
    const QByteArray body = status >= 400 ? reason + "\n" : QByteArray();
    socket->write("HTTP/1.1 " + QByteArray::number(status) + " " + reason + "\r\nContent-Length: "
        + QByteArray::number(body.size()) + "\r\nConnection: close\r\n" + extraHeaders + "\r\n" + body);
    socket->disconnectFromHost();
}

void HttpTestServer::respond(QTcpSocket* socket, const QByteArray& request)
{
    const QList<QByteArray> words = request.left(request.indexOf("\r\n")).split(' ');
    if (words.size() < 2 || words[0] != "GET") {
        sendSimple(socket, 405, "Method Not Allowed");
        return;
    }
    const QString path = QUrl(QString::fromLatin1(words[1])).path(QUrl::FullyDecoded); // without the query
    if (path.startsWith(QLatin1String("/private/"))) {
        sendSimple(socket, 401, "Unauthorized", "WWW-Authenticate: Basic realm=\"test\"\r\n");
        return;
    }
    const QFileInfo info(m_root + path);
    if (path.contains(QLatin1String("..")) || !info.isFile()) {
        sendSimple(socket, 404, "Not Found");
        return;
    }
    const QByteArray etag = "\"" + QByteArray::number(info.size(), 16) + "-"
        + QByteArray::number(info.lastModified().toMSecsSinceEpoch(), 16) + "\"";
    const QByteArray lastModified = httpDate(info.lastModified());
    QByteArray validators = "Last-Modified: " + lastModified + "\r\n";
    if (m_sendEtag) validators += "ETag: " + etag + "\r\n";
    const QByteArray ifNoneMatch = headerValue(request, "If-None-Match");
    const QByteArray ifModifiedSince = headerValue(request, "If-Modified-Since");
    const bool unchanged = m_sendEtag && !ifNoneMatch.isEmpty()
        ? ifNoneMatch == etag
        : (!ifModifiedSince.isEmpty() && ifModifiedSince == lastModified);
    if (unchanged) {
        ++m_notModified;
        sendSimple(socket, 304, "Not Modified", validators);
        return;
    }
    auto* file = new QFile(info.filePath());
    if (!file->open(QIODevice::ReadOnly)) {
        delete file;
        sendSimple(socket, 403, "Forbidden");
        return;
    }
    ++m_bodies;
    m_bodiesInFlight.insert(socket, file);
    socket->write("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\nContent-Length: "
        + QByteArray::number(info.size()) + "\r\nConnection: close\r\n" + validators + "\r\n");
    sendMore(socket);
}

void HttpTestServer::sendMore(QTcpSocket* socket)
{
    QFile* file = m_bodiesInFlight.value(socket);
    if (!file || socket->bytesToWrite() > kChunk) return;
    const QByteArray chunk = file->read(kChunk);
    if (!chunk.isEmpty()) {
        socket->write(chunk);
        return;
    }
    delete m_bodiesInFlight.take(socket);
    socket->disconnectFromHost();
}

} // namespace sightline::test
