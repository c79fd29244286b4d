#include "app/ui/shell/recent_files.h"

#include "app/ui/remote/remote_location.h"

#include <QDir>
#include <QFileInfo>
#include <QMenu>
#include <QSettings>

namespace sightline::ui {

namespace {

const QString kSettingsKey = QStringLiteral("recentFiles");

// Local paths are made absolute; remote locations (ssh://, user@host:path, https://) stay as typed.
QString absolute(const QString& path)
{
    if (looksLikeRemoteLocation(path)) return path.trimmed();
    return QDir::cleanPath(QFileInfo(path).absoluteFilePath());
}

// "run1.rep" for a local file, "run1.rep (user@host)" for a remote one.
QString menuName(const QString& entry)
{
    if (looksLikeRemoteLocation(entry)) {
        if (const auto remote = RemoteLocation::parse(entry))
            return QStringLiteral("%1 (%2)").arg(
                remote->fileName(), remote->isSsh() ? remote->endpoint() : remote->host());
    }
    return QFileInfo(entry).fileName();
}

} // namespace

RecentFiles::RecentFiles(QMenu* menu, bool persistent, QObject* parent)
    : QObject(parent)
    , m_menu(menu)
    , m_persistent(persistent)
{
    const QStringList stored = persistent ? QSettings().value(kSettingsKey).toStringList() : QStringList();
    for (const QString& path : stored) {
        const QString clean = absolute(path);
        if (!m_paths.contains(clean) && m_paths.size() < kMaximum) m_paths.append(clean);
    }
    rebuildMenu();
}

void RecentFiles::add(const QString& path)
{
    const QString clean = absolute(path);
    m_paths.removeAll(clean);
    m_paths.prepend(clean);
    while (m_paths.size() > kMaximum)
        m_paths.removeLast();
    save();
    rebuildMenu();
}

void RecentFiles::remove(const QString& path)
{
    if (m_paths.removeAll(absolute(path)) == 0) return;
    save();
    rebuildMenu();
}

void RecentFiles::clear()
{
    m_paths.clear();
    save();
    rebuildMenu();
}

void RecentFiles::save() const
{
    if (m_persistent) QSettings().setValue(kSettingsKey, m_paths);
}

void RecentFiles::rebuildMenu()
{
    m_menu->clear();
    int number = 1;
    for (const QString& path : m_paths) {
        // "&1 name.rep" gives keyboard accelerators 1..9; the full path is in the tooltip.
        const QString label
            = number <= 9 ? QStringLiteral("&%1 %2").arg(number).arg(menuName(path)) : menuName(path);
        QAction* action = m_menu->addAction(label);
        action->setToolTip(path);
        action->setStatusTip(path);
        // Queued: handling the request may rebuild this menu, which deletes the sending action.
        connect(
            action, &QAction::triggered, this, [this, path] { emit openRequested(path); },
            Qt::QueuedConnection);
        ++number;
    }
    if (!m_paths.isEmpty()) m_menu->addSeparator();
    QAction* clearAction = m_menu->addAction(tr("Clear Recent Files"));
    clearAction->setEnabled(!m_paths.isEmpty());
    connect(clearAction, &QAction::triggered, this, &RecentFiles::clear, Qt::QueuedConnection);
    m_menu->setToolTipsVisible(true);
    m_menu->setEnabled(true);
}

} // namespace sightline::ui
