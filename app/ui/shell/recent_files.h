// File > Open Recent: the most recently opened reports, newest first, kept in QSettings under
// "recentFiles" so that they survive restarts. Invariant: the list holds absolute local paths and
// remote locations as typed (ssh://, user@host:path, https://), no duplicates, at most kMaximum
// entries; the menu is rebuilt from it whenever it changes.
#pragma once

#include <QObject>
#include <QStringList>

class QMenu;

namespace sightline::ui {

class RecentFiles : public QObject
{
    Q_OBJECT
public:
    static constexpr int kMaximum = 10;

    // `persistent` false: the list starts empty and is never stored (the screenshot mode).
    RecentFiles(QMenu* menu, bool persistent, QObject* parent = nullptr);

    QStringList paths() const { return m_paths; }
    void add(const QString& path); // moves it to the top
    void remove(const QString& path); // e.g. a file that no longer opens
    void clear();

signals:
    void openRequested(const QString& path);

private:
    void save() const;
    void rebuildMenu();

    QMenu* m_menu;
    bool m_persistent;
    QStringList m_paths;
};

} // namespace sightline::ui
