// Remote locations as users type them, the shell words sent to the server, the parsers of the
// server's find output, the cache's bookkeeping, and Open Recent keeping remote locations.
#include "app/ui/common/shell_words.h"
#include "app/ui/remote/remote_browser_dialog.h"
#include "app/ui/remote/remote_cache.h"
#include "app/ui/remote/remote_listing.h"
#include "app/ui/remote/remote_location.h"
#include "app/ui/remote/ssh_command.h"
#include "app/ui/shell/recent_files.h"
#include "qt_catch_strings.h"
#include "remote_test_support.h"
#include "test_paths.h"

#include <QFile>
#include <QMenu>
#include <QProcess>
#include <catch2/catch.hpp>

using namespace sightline;
using ui::RemoteLocation;

namespace {

RemoteLocation parsed(const QString& text)
{
    QString error;
    const auto location = RemoteLocation::parse(text, &error);
    INFO(error.toStdString());
    REQUIRE(location.has_value());
    return *location;
}

QString parseError(const QString& text)
{
    QString error;
    CHECK_FALSE(RemoteLocation::parse(text, &error).has_value());
    return error;
}

// What a POSIX shell makes of `word` (run through sh -c 'printf %s WORD').
QString throughShell(const QString& word)
{
    QProcess sh;
    sh.start(QStringLiteral("sh"), {QStringLiteral("-c"), QStringLiteral("printf %s ") + word});
    sh.waitForFinished();
    return QString::fromUtf8(sh.readAllStandardOutput());
}

} // namespace

TEST_CASE("ssh:// locations give user, host, port and path, and ~ paths are home-relative")
{
    const RemoteLocation full
        = parsed(QStringLiteral("ssh://alice@gpu-7.example.org:2222/data/runs/run1.rep"));
    CHECK(full.isSsh());
    CHECK(full.user() == QStringLiteral("alice"));
    CHECK(full.host() == QStringLiteral("gpu-7.example.org"));
    CHECK(full.port() == 2222);
    CHECK(full.path() == QStringLiteral("/data/runs/run1.rep"));
    CHECK(full.fileName() == QStringLiteral("run1.rep"));
    CHECK(full.endpoint() == QStringLiteral("alice@gpu-7.example.org:2222"));
    CHECK(parsed(full.toString()) == full);

    const RemoteLocation plain = parsed(QStringLiteral("ssh://server/tmp/a b.rep"));
    CHECK(plain.user().isEmpty());
    CHECK(plain.port() == -1);
    CHECK(plain.path() == QStringLiteral("/tmp/a b.rep"));
    CHECK(parsed(plain.toString()).path() == QStringLiteral("/tmp/a b.rep"));

    const RemoteLocation home = parsed(QStringLiteral("ssh://server/~/runs/x.rep"));
    CHECK(home.path() == QStringLiteral("~/runs/x.rep"));
    CHECK(parsed(home.toString()).path() == QStringLiteral("~/runs/x.rep"));

    const RemoteLocation v6 = parsed(QStringLiteral("ssh://bob@[::1]:2200/r.rep"));
    CHECK(v6.host() == QStringLiteral("::1"));
    CHECK(v6.endpoint() == QStringLiteral("bob@[::1]:2200"));
}

TEST_CASE("scp-style user@host:path locations are relative to the home folder unless absolute")
{
    const RemoteLocation relative = parsed(QStringLiteral("alice@gpu7:runs/run1.rep"));
    CHECK(relative.isSsh());
    CHECK(relative.user() == QStringLiteral("alice"));
    CHECK(relative.host() == QStringLiteral("gpu7"));
    CHECK(relative.port() == -1);
    CHECK(relative.path() == QStringLiteral("runs/run1.rep"));
    CHECK(relative.toString() == QStringLiteral("alice@gpu7:runs/run1.rep"));

    const RemoteLocation absolute = parsed(QStringLiteral("gpu7:/scratch/r.rep"));
    CHECK(absolute.user().isEmpty());
    CHECK(absolute.path() == QStringLiteral("/scratch/r.rep"));
    CHECK(parsed(QStringLiteral("gpu7:")).path().isEmpty());
    CHECK(parsed(QStringLiteral("[fe80::1]:x.rep")).host() == QStringLiteral("fe80::1"));
}

TEST_CASE("https and http locations keep the URL, and a password or an unknown scheme is refused")
{
    const RemoteLocation https
        = parsed(QStringLiteral("https://traces.example.org:8443/team/run%201.rep?token=abc"));
    CHECK_FALSE(https.isSsh());
    CHECK(https.scheme() == RemoteLocation::Scheme::Https);
    CHECK(https.host() == QStringLiteral("traces.example.org"));
    CHECK(https.fileName() == QStringLiteral("run 1.rep"));
    CHECK(https.url().query() == QStringLiteral("token=abc"));
    CHECK(parsed(https.toString()) == https);

    CHECK(parseError(QStringLiteral("ssh://bob:secret@host/x.rep")).contains(QStringLiteral("never stores")));
    CHECK(parseError(QStringLiteral("ftp://host/x.rep")).contains(QStringLiteral("ssh://")));
    CHECK(parseError(QStringLiteral("/local/file.rep")).contains(QStringLiteral("not a remote location")));
    CHECK(parseError(QStringLiteral("   ")).contains(QStringLiteral("Type a remote location")));
    CHECK(parseError(QStringLiteral("ssh:///x.rep")).contains(QStringLiteral("host")));
}

TEST_CASE("local paths are not mistaken for remote locations")
{
    CHECK(ui::looksLikeRemoteLocation(QStringLiteral("ssh://h/x.rep")));
    CHECK(ui::looksLikeRemoteLocation(QStringLiteral("HTTPS://h/x.rep")));
    CHECK(ui::looksLikeRemoteLocation(QStringLiteral("user@host:x.rep")));
    CHECK(ui::looksLikeRemoteLocation(QStringLiteral("host:/x.rep")));
    CHECK_FALSE(ui::looksLikeRemoteLocation(QStringLiteral("/home/u/a:b.rep")));
    CHECK_FALSE(ui::looksLikeRemoteLocation(QStringLiteral("./a:b.rep")));
    CHECK_FALSE(ui::looksLikeRemoteLocation(QStringLiteral("run1.rep")));
    CHECK_FALSE(ui::looksLikeRemoteLocation(QStringLiteral("dir/a:b.rep")));
}

TEST_CASE("remote paths become shell words that survive quotes, spaces and $ unchanged")
{
    for (const QString& name : {QStringLiteral("plain.rep"), QStringLiteral("it's here.rep"),
             QStringLiteral("$HOME `x` \"q\".rep"), QStringLiteral("a\\b.rep")})
        CHECK(throughShell(ui::shellQuote(name)) == name);
    // A leading ~ stays outside the quotes so the shell expands it.
    const QString home = qEnvironmentVariable("HOME");
    CHECK(throughShell(ui::remotePathWord(QStringLiteral("~/a b.rep"))) == home + QStringLiteral("/a b.rep"));
    CHECK(throughShell(ui::remotePathWord(QString())) == home);
}

TEST_CASE("ssh command lines never prompt and keep the host from being read as an option")
{
    qunsetenv("SIGHTLINE_SSH_COMMAND");
    const QStringList line
        = ui::sshCommandLine(parsed(QStringLiteral("ssh://al@h:2022/x.rep")), QStringLiteral("true"));
    CHECK(line.first() == QStringLiteral("ssh"));
    CHECK(line.contains(QStringLiteral("BatchMode=yes")));
    CHECK(line.indexOf(QStringLiteral("-p")) + 1 == line.indexOf(QStringLiteral("2022")));
    CHECK(line.indexOf(QStringLiteral("-l")) + 1 == line.indexOf(QStringLiteral("al")));
    CHECK(line.indexOf(QStringLiteral("--")) + 1 == line.indexOf(QStringLiteral("h")));
    CHECK(line.last() == QStringLiteral("true"));
    qputenv("SIGHTLINE_SSH_COMMAND", "/opt/ssh -F '/my config'");
    const QStringList custom = ui::sshCommandLine(parsed(QStringLiteral("h:x.rep")), QStringLiteral("true"));
    CHECK(custom.mid(0, 3)
        == QStringList {QStringLiteral("/opt/ssh"), QStringLiteral("-F"), QStringLiteral("/my config")});
    qunsetenv("SIGHTLINE_SSH_COMMAND");
}

TEST_CASE("the find NUL-separated listing is parsed, filtered to openable files and folders, and sorted")
{
    QByteArray output = "/data/runs\n";
    for (const char* record : {"f\t120\t1700000000.5\tz.rep", "d\t4096\t1700000001.0\tsub",
             "f\t5\t1.0\tnotes.txt", "f\t7\t1.0\ta b.sqlite", "f\t9\t1.0\tt.json.gz",
             "f\t9\t1.0\t.hidden.rep", "l\t9\t1.0\tbroken.rep", "f\t11\t1.0\tweird\tname.json",
             "f\t3\t1.0\trun10.rep", "f\t3\t1.0\trun9.rep"}) {
        output += record;
        output += '\0';
    }
    const auto folder = ui::parseFolderListing(output);
    REQUIRE(folder.has_value());
    CHECK(folder->absolutePath == QStringLiteral("/data/runs"));
    QStringList names;
    for (const ui::RemoteEntry& entry : folder->entries)
        names << entry.name;
    CHECK(names
        == QStringList {QStringLiteral("sub"), QStringLiteral("a b.sqlite"), QStringLiteral("run9.rep"),
            QStringLiteral("run10.rep"), QStringLiteral("t.json.gz"), QStringLiteral("weird\tname.json"),
            QStringLiteral("z.rep")});
    CHECK(folder->entries.first().isFolder);
    CHECK(folder->entries.last().size == 120);
    CHECK(folder->entries.last().modified().toSecsSinceEpoch() == 1700000000);
    CHECK_FALSE(ui::parseFolderListing(QByteArray()).has_value());

    const auto file = ui::parseFileDescription("f\t12345\t1700000000.25\n", QStringLiteral("x.rep"));
    REQUIRE(file.has_value());
    CHECK(file->size == 12345);
    CHECK(file->mtime == QStringLiteral("1700000000.25"));
    CHECK_FALSE(ui::parseFileDescription("Welcome to the server!\n", QStringLiteral("x.rep")).has_value());
}

TEST_CASE("parent folders of remote paths")
{
    CHECK(ui::remoteParentPath(QStringLiteral("/a/b/c.rep")) == QStringLiteral("/a/b"));
    CHECK(ui::remoteParentPath(QStringLiteral("/a")) == QStringLiteral("/"));
    CHECK(ui::remoteParentPath(QStringLiteral("/")) == QStringLiteral("/"));
    CHECK(ui::remoteParentPath(QStringLiteral("~/x.rep")) == QStringLiteral("~"));
    CHECK(ui::remoteParentPath(QStringLiteral("x.rep")).isEmpty());
    CHECK(ui::remoteParentPath(QStringLiteral("/a/b/")) == QStringLiteral("/a"));
}

TEST_CASE("the cache reports a version only for a complete copy of the same location")
{
    test::remoteTestApp();
    const auto folder = test::scratchDir("remote-cache-unit");
    const ui::RemoteCache cache(QString::fromStdString(folder.string()));
    const RemoteLocation a = parsed(QStringLiteral("ssh://h/data/run.rep"));
    const RemoteLocation b = parsed(QStringLiteral("ssh://other/data/run.rep"));
    CHECK(cache.localPath(a) != cache.localPath(b));
    CHECK(cache.localPath(a).endsWith(QStringLiteral("/run.rep")));
    CHECK_FALSE(cache.cachedVersion(a).has_value());

    REQUIRE(cache.prepare(a).isEmpty());
    QFile partial(cache.partialPath(a));
    REQUIRE(partial.open(QIODevice::WriteOnly));
    partial.write("0123456789");
    partial.close();
    ui::RemoteVersion version;
    version.size = 10;
    version.mtime = QStringLiteral("1700000000.5");
    REQUIRE(cache.commit(a, version).isEmpty());
    CHECK_FALSE(QFile::exists(cache.partialPath(a)));
    const auto cached = cache.cachedVersion(a);
    REQUIRE(cached.has_value());
    CHECK(cached->sameAs(version));
    ui::RemoteVersion touched = version;
    touched.mtime = QStringLiteral("1700000001.5");
    CHECK_FALSE(cached->sameAs(touched));
    CHECK_FALSE(cache.cachedVersion(b).has_value());

    // A copy cut short (another size than recorded) is not trusted.
    QFile copy(cache.localPath(a));
    REQUIRE(copy.open(QIODevice::Append));
    copy.write("x");
    copy.close();
    CHECK_FALSE(cache.cachedVersion(a).has_value());
}

TEST_CASE("Open Recent keeps remote locations as typed and names their host")
{
    test::remoteTestApp();
    QMenu menu;
    ui::RecentFiles recent(&menu, false);
    recent.add(QStringLiteral("ssh://alice@gpu7:2222/data/run1.rep"));
    recent.add(QStringLiteral("bob@gpu8:runs/run2.rep"));
    recent.add(QStringLiteral("/tmp/local.rep"));
    CHECK(recent.paths()
        == QStringList {QStringLiteral("/tmp/local.rep"), QStringLiteral("bob@gpu8:runs/run2.rep"),
            QStringLiteral("ssh://alice@gpu7:2222/data/run1.rep")});
    QStringList labels;
    for (QAction* action : menu.actions())
        labels << action->text();
    CHECK(labels.contains(QStringLiteral("&2 run2.rep (bob@gpu8)")));
    CHECK(labels.contains(QStringLiteral("&3 run1.rep (alice@gpu7:2222)")));
}

TEST_CASE("shell words split like a shell: quotes, backslashes, no expansion")
{
    CHECK(ui::splitShellWords(QStringLiteral("ssh -F '/my config' -o \"A=b c\" x\\ y $HOME"))
        == QStringList {QStringLiteral("ssh"), QStringLiteral("-F"), QStringLiteral("/my config"),
            QStringLiteral("-o"), QStringLiteral("A=b c"), QStringLiteral("x y"), QStringLiteral("$HOME")});
    CHECK(ui::splitShellWords(QStringLiteral("  ''  \"\" a"))
        == QStringList {QString(), QString(), QStringLiteral("a")});
    CHECK(ui::splitShellWords(QStringLiteral("\"it's\" 'say \"hi\"'"))
        == QStringList {QStringLiteral("it's"), QStringLiteral("say \"hi\"")});
    const QStringList tricky {QStringLiteral("plain"), QStringLiteral("two words"), QStringLiteral("it's"),
        QString(), QStringLiteral("$x \\ \"q\"")};
    CHECK(ui::splitShellWords(ui::joinShellWords(tricky)) == tricky);
    for (const QString& word : tricky)
        CHECK(throughShell(ui::shellQuote(word)) == word);
    CHECK(ui::joinShellWords({QStringLiteral("--trace=nvtx,osrt"), QStringLiteral("a b")})
        == QStringLiteral("--trace=nvtx,osrt 'a b'"));
}
