// The viewer's main window: one tab per report (ReportTab), an empty-state page when none is
// open, File / View / Help menus, drag and drop of report files, and a status bar describing
// the current report's visible range. Invariants: a path is open in at most one tab; a load
// that fails closes its tab (unless the tab still shows an earlier load) and shows the error
// sentence in a dialog without disturbing the other tabs; window state and recent files persist
// in QSettings unless Options::persistState is false (the screenshot mode).
#pragma once

#include "model/trace/trace.h"

#include <QHash>
#include <QMainWindow>
#include <memory>

class QAction;
class QMessageBox;
class QStackedWidget;
class QTabWidget;

namespace sightline::ui {

class EmptyStatePage;
class ProfileDialog;
class RecentFiles;
class ReportTab;
class StatusSummary;
class ViewMenu;

class MainWindow : public QMainWindow
{
    Q_OBJECT
public:
    struct Options
    {
        bool persistState = true; // read and write QSettings (geometry, recent files)
    };

    explicit MainWindow(Options options, QWidget* parent = nullptr);
    MainWindow()
        : MainWindow(Options {})
    { }
    ~MainWindow() override;

    // Opens `path` in a new tab, loading in the background; an already open path is brought
    // to the front instead. Returns its tab.
    ReportTab* openReport(const QString& path);
    void openReports(const QStringList& paths);
    // A local path, or a remote location (ssh://, user@host:path, https://) that is downloaded
    // through the Open Remote dialog first.
    void openLocation(const QString& pathOrLocation);
    void openRemote(const QString& location);
    // Adds a tab for a trace already loaded (the screenshot mode).
    ReportTab* showLoadedReport(const QString& path, std::shared_ptr<const Trace> trace);

    int reportCount() const;
    ReportTab* report(int index) const;
    ReportTab* currentReport() const;
    void closeReport(int index);

    ViewMenu* viewMenu() const { return m_viewMenu; }
    StatusSummary* statusSummary() const { return m_status; }
    RecentFiles* recentFiles() const { return m_recent; }
    ProfileDialog* profileDialog(); // created on first use

public slots:
    void showOpenDialog();
    void showOpenRemoteDialog();
    void showProfileDialog();
    void closeCurrentReport();
    void reloadCurrentReport();

protected:
    void closeEvent(QCloseEvent* event) override;
    void dragEnterEvent(QDragEnterEvent* event) override;
    void dragLeaveEvent(QDragLeaveEvent* event) override;
    void dropEvent(QDropEvent* event) override;

private:
    void buildMenus();
    ReportTab* addTab(const QString& path);
    ReportTab* findReport(const QString& path) const;
    void onCurrentChanged();
    void onReportLoaded(ReportTab* tab, double seconds);
    void onReportFailed(ReportTab* tab, const QString& error);
    void onReportCancelled(ReportTab* tab);
    void removeTab(ReportTab* tab);
    void openProfiledReport(const QString& path);
    void openDownloaded(const QString& location, const QString& localPath, bool unchanged);
    void showLoadError(const QString& error);
    void restoreState();
    void saveState() const;

    Options m_options;
    QStackedWidget* m_pages = nullptr;
    EmptyStatePage* m_emptyPage = nullptr;
    QTabWidget* m_tabs = nullptr;
    RecentFiles* m_recent = nullptr;
    ViewMenu* m_viewMenu = nullptr;
    StatusSummary* m_status = nullptr;
    QAction* m_closeAction = nullptr;
    QAction* m_reloadAction = nullptr;
    ProfileDialog* m_profileDialog = nullptr;
    QHash<QString, QString> m_remoteOrigins; // local copy -> remote location
};

} // namespace sightline::ui
