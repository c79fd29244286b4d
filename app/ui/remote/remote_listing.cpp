#include "app/ui/remote/remote_listing.h"

#include "app/ui/remote/ssh_command.h"

#include <algorithm>

namespace sightline::ui {

namespace {

// %y type (d folder, f file, l a link find could not follow), %s size, %T@ mtime, %f name.
const QString kEntryFormat = QStringLiteral("'%y\\t%s\\t%T@\\t%f\\0'");

std::optional<RemoteEntry> parseRecord(const QByteArray& record, bool withName)
{
    const QList<QByteArray> fields = record.split('\t');
    if (fields.size() < (withName ? 4 : 3)) return std::nullopt;
    RemoteEntry entry;
    const QByteArray type = fields[0];
    if (type != "d" && type != "f") return std::nullopt; // sockets, broken links...
    entry.isFolder = type == "d";
    bool ok = false;
    entry.size = fields[1].toLongLong(&ok);
    if (!ok) return std::nullopt;
    entry.mtime = QString::fromLatin1(fields[2]);
    if (withName) {
        // A name may itself hold tabs: everything after the third tab is the name.
        const int nameStart = int(fields[0].size() + fields[1].size() + fields[2].size() + 3);
        entry.name = QString::fromUtf8(record.mid(nameStart));
    }
    return entry;
}

// The digits of a number without its leading zeros ("007" -> "7", "0" -> "").
QStringView significantDigits(QStringView digits)
{
    qsizetype first = 0;
    while (first < digits.size() && digits[first] == QLatin1Char('0'))
        ++first;
    return digits.mid(first);
}

// Case-insensitive, with runs of digits compared as numbers: run9 before run10.
bool naturalLess(const QString& a, const QString& b)
{
    qsizetype i = 0;
    qsizetype j = 0;
    while (i < a.size() && j < b.size()) {
        if (a[i].isDigit() && b[j].isDigit()) {
            const qsizetype startA = i;
            const qsizetype startB = j;
            while (i < a.size() && a[i].isDigit())
                ++i;
            while (j < b.size() && b[j].isDigit())
                ++j;
            const QStringView numberA = significantDigits(QStringView(a).mid(startA, i - startA));
            const QStringView numberB = significantDigits(QStringView(b).mid(startB, j - startB));
            if (numberA.size() != numberB.size()) return numberA.size() < numberB.size();
            if (const int order = numberA.compare(numberB); order != 0) return order < 0;
            continue;
        }
        if (const int order = QStringView(a).mid(i, 1).compare(QStringView(b).mid(j, 1), Qt::CaseInsensitive);
            order != 0)
            return order < 0;
        ++i;
        ++j;
    }
    if (a.size() - i != b.size() - j) return a.size() - i < b.size() - j;
    return a < b;
}

bool mentions(const QString& text, const char* phrase)
{
    return text.contains(QLatin1String(phrase), Qt::CaseInsensitive);
}

} // namespace

QDateTime RemoteEntry::modified() const
{
    return QDateTime::fromMSecsSinceEpoch(qint64(mtime.toDouble() * 1000.0));
}

bool isOpenableTraceName(const QString& name)
{
    for (const char* suffix : {".rep", ".sqlite", ".json", ".json.gz"})
        if (name.endsWith(QLatin1String(suffix), Qt::CaseInsensitive)) return true;
    return false;
}

QString listFolderCommand(const QString& path)
{
    return QStringLiteral("cd -- %1 && pwd && LC_ALL=C find -L . -mindepth 1 -maxdepth 1 -printf %2")
        .arg(remotePathWord(path), kEntryFormat);
}

QString describeFileCommand(const QString& path)
{
    return QStringLiteral("LC_ALL=C find -L %1 -maxdepth 0 -printf %2")
        .arg(remotePathWord(path), QStringLiteral("'%y\\t%s\\t%T@\\n'"));
}

std::optional<RemoteFolder> parseFolderListing(const QByteArray& output)
{
    const int newline = output.indexOf('\n');
    if (newline <= 0) return std::nullopt;
    RemoteFolder folder;
    folder.absolutePath = QString::fromUtf8(output.left(newline));
    const QList<QByteArray> records = output.mid(newline + 1).split('\0');
    for (const QByteArray& record : records) {
        if (record.isEmpty()) continue;
        std::optional<RemoteEntry> entry = parseRecord(record, true);
        if (!entry || entry->name.startsWith(QLatin1Char('.'))) continue;
        if (entry->isFolder || isOpenableTraceName(entry->name)) folder.entries.append(*entry);
    }
    std::sort(folder.entries.begin(), folder.entries.end(), [](const RemoteEntry& a, const RemoteEntry& b) {
        if (a.isFolder != b.isFolder) return a.isFolder;
        return naturalLess(a.name, b.name);
    });
    return folder;
}

std::optional<RemoteEntry> parseFileDescription(const QByteArray& output, const QString& name)
{
    std::optional<RemoteEntry> entry = parseRecord(output.trimmed(), false);
    if (entry) entry->name = name;
    return entry;
}

QString describeRemotePathFailure(const RemoteLocation& location, const QString& stdErr, bool wantFolder)
{
    const QString where = location.toString();
    if (mentions(stdErr, "No such file") || mentions(stdErr, "can't cd") || mentions(stdErr, "can't access"))
        return wantFolder
            ? QStringLiteral("No such folder: %1 does not exist; check the path.").arg(where)
            : QStringLiteral("No such file: %1 does not exist; check the path and the file name.").arg(where);
    if (mentions(stdErr, "Not a directory"))
        return QStringLiteral("%1 is a file, not a folder; open it directly instead of browsing it.")
            .arg(where);
    if (mentions(stdErr, "Permission denied"))
        return QStringLiteral(
            "%1 cannot be read by your user on the server (permission denied); ask its owner "
            "to make it readable.")
            .arg(where);
    if (mentions(stdErr, "find: not found") || mentions(stdErr, "command not found")
        || mentions(stdErr, "unknown predicate") || mentions(stdErr, "-printf"))
        return QStringLiteral("%1 lacks GNU find, which Sightline needs to list and describe files; install "
                              "findutils on the server.")
            .arg(location.endpoint());
    const QStringList lines = stdErr.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    return QStringLiteral("Reading %1 failed: %2")
        .arg(where, lines.isEmpty() ? QStringLiteral("unknown error") : lines.constLast());
}

RemoteFolderListing::RemoteFolderListing(QObject* parent)
    : QObject(parent)
    , m_ssh(new SshCommand(this))
{
    connect(m_ssh, &SshCommand::finished, this, [this] {
        RemoteFolder folder;
        const SshFailure failure = m_ssh->failure();
        if (failure != SshFailure::None && failure != SshFailure::Other) {
            emit finished(folder, describeSshFailure(failure, m_folder, m_ssh->standardError()));
            return;
        }
        if (m_ssh->exitCode() != 0) {
            emit finished(folder, describeRemotePathFailure(m_folder, m_ssh->standardError(), true));
            return;
        }
        const std::optional<RemoteFolder> parsed = parseFolderListing(m_ssh->collectedOutput());
        if (!parsed) {
            emit finished(folder,
                QStringLiteral("The listing of %1:%2 could not be read; the server's shell printed something "
                               "unexpected (check its login scripts).")
                    .arg(m_folder.endpoint(), m_folder.path()));
            return;
        }
        emit finished(*parsed, QString());
    });
}

RemoteFolderListing::~RemoteFolderListing() = default;

void RemoteFolderListing::start(const RemoteLocation& folder)
{
    m_folder = folder;
    m_ssh->start(folder, listFolderCommand(folder.path()));
}

void RemoteFolderListing::cancel()
{
    m_ssh->cancel();
}

} // namespace sightline::ui
