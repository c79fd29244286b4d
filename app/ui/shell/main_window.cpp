#include "app/ui/shell/main_window.h"

#include "app/ui/profile/profile_dialog.h"
#include "app/ui/remote/open_remote_dialog.h"
#include "app/ui/remote/remote_location.h"
#include "app/ui/report/report_tab.h"
#include "app/ui/shell/app_icon.h"
#include "app/ui/shell/empty_state_page.h"
#include "app/ui/shell/recent_files.h"
#include "app/ui/shell/status_summary.h"
#include "app/ui/shell/view_menu.h"
#include "views/timeline/widgets/timeline_view.h"

#include <QApplication>
#include <QCloseEvent>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QLocale>
#include <QMenuBar>
#include <QMessageBox>
#include <QMimeData>
#include <QScreen>
#include <QSettings>
#include <QStackedWidget>
#include <QStatusBar>
#include <QTabWidget>

namespace sightline::ui {

namespace {

const QString kGeometryKey = QStringLiteral("mainWindow/geometry");
const QString kStateKey = QStringLiteral("mainWindow/state");
const QString kOpenDirectoryKey = QStringLiteral("lastOpenDirectory");
constexpr int kStatusMessageMs = 6000;

QString canonical(const QString& path)
{
    const QFileInfo info(path);
    const QString resolved = info.canonicalFilePath(); // empty when the file does not exist
    return resolved.isEmpty() ? QDir::cleanPath(info.absoluteFilePath()) : resolved;
}

QStringList localFiles(const QMimeData* mime)
{
    QStringList paths;
    if (!mime || !mime->hasUrls()) return paths;
    for (const QUrl& url : mime->urls()) {
        if (url.isLocalFile()) paths.append(url.toLocalFile());
    }
    return paths;
}

} // namespace

MainWindow::MainWindow(Options options, QWidget* parent)
    : QMainWindow(parent)
    , m_options(options)
{
    setObjectName(QStringLiteral("mainWindow"));
    setWindowTitle(QStringLiteral("Sightline"));
    setWindowIcon(appIcon());
    setAcceptDrops(true);

    m_emptyPage = new EmptyStatePage(this);
    m_tabs = new QTabWidget(this);
    m_tabs->setObjectName(QStringLiteral("reportTabs"));
    m_tabs->setDocumentMode(true);
    m_tabs->setTabsClosable(true);
    m_tabs->setMovable(true);
    m_pages = new QStackedWidget(this);
    m_pages->addWidget(m_emptyPage);
    m_pages->addWidget(m_tabs);
    setCentralWidget(m_pages);

    m_status = new StatusSummary(statusBar(), this);
    buildMenus();

    connect(m_tabs, &QTabWidget::currentChanged, this, &MainWindow::onCurrentChanged);
    connect(m_tabs, &QTabWidget::tabCloseRequested, this, &MainWindow::closeReport);
    connect(m_emptyPage, &EmptyStatePage::openRequested, this, &MainWindow::showOpenDialog);
    connect(m_emptyPage, &EmptyStatePage::recentRequested, this, &MainWindow::openLocation);
    connect(m_recent, &RecentFiles::openRequested, this, &MainWindow::openLocation);

    restoreState();
    onCurrentChanged();
}

MainWindow::~MainWindow() = default;

void MainWindow::buildMenus()
{
    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open…"), this, &MainWindow::showOpenDialog);
    open->setShortcut(QKeySequence::Open);
    open->setObjectName(QStringLiteral("openAction"));
    QAction* openRemote = file->addAction(tr("Open Re&mote…"), this, &MainWindow::showOpenRemoteDialog);
    openRemote->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    openRemote->setObjectName(QStringLiteral("openRemoteAction"));
    QMenu* recentMenu = file->addMenu(tr("Open &Recent"));
    recentMenu->setObjectName(QStringLiteral("recentMenu"));
    m_recent = new RecentFiles(recentMenu, m_options.persistState, this);
    m_reloadAction = file->addAction(tr("Re&load"), this, &MainWindow::reloadCurrentReport);
    m_reloadAction->setShortcut(QKeySequence::Refresh);
    file->addSeparator();
    m_closeAction = file->addAction(tr("&Close"), this, &MainWindow::closeCurrentReport);
    m_closeAction->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_W));
    m_closeAction->setObjectName(QStringLiteral("closeAction"));
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), this, &QWidget::close);
    quit->setShortcut(QKeySequence::Quit);
    quit->setMenuRole(QAction::QuitRole);

    QMenu* view = menuBar()->addMenu(tr("&View"));
    m_viewMenu = new ViewMenu(view, this);

    // Tab switching has no menu entry; the shortcuts are listed in the keyboard help.
    QAction* next = new QAction(tr("Next Report"), this);
    next->setShortcut(QKeySequence::NextChild);
    connect(next, &QAction::triggered, this,
        [this] { m_tabs->setCurrentIndex((m_tabs->currentIndex() + 1) % std::max(1, m_tabs->count())); });
    QAction* previous = new QAction(tr("Previous Report"), this);
    previous->setShortcut(QKeySequence::PreviousChild);
    connect(previous, &QAction::triggered, this, [this] {
        const int count = std::max(1, m_tabs->count());
        m_tabs->setCurrentIndex((m_tabs->currentIndex() + count - 1) % count);
    });
    addActions({next, previous});

    QMenu* tools = menuBar()->addMenu(tr("&Tools"));
    QAction* profile = tools->addAction(tr("&Profile Application…"), this, &MainWindow::showProfileDialog);
    profile->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P));
    profile->setObjectName(QStringLiteral("profileAction"));

    QMenu* help = menuBar()->addMenu(tr("&Help"));
    help->addAction(m_viewMenu->keyboardHelpAction());
    QAction* about = help->addAction(tr("&About Sightline"), this, [this] {
        QMessageBox::about(this, tr("About Sightline"),
            tr("<p><b>Sightline %1</b></p><p>An open CUDA timeline profiler: records what a "
               "program does on the CPU and the GPU, and shows it on a timeline.</p>")
                .arg(QStringLiteral(SIGHTLINE_VERSION)));
    });
    about->setMenuRole(QAction::AboutRole);
}

ReportTab* MainWindow::openReport(const QString& path)
{
    if (ReportTab* existing = findReport(path)) {
        m_tabs->setCurrentWidget(existing);
        return existing;
    }
    ReportTab* tab = addTab(path);
    tab->load();
    return tab;
}

void MainWindow::openReports(const QStringList& paths)
{
    for (const QString& path : paths)
        openLocation(path);
}

void MainWindow::openLocation(const QString& pathOrLocation)
{
    if (looksLikeRemoteLocation(pathOrLocation))
        openRemote(pathOrLocation);
    else
        openReport(pathOrLocation);
}

void MainWindow::openRemote(const QString& location)
{
    showOpenRemoteDialog();
    if (auto* dialog = findChild<OpenRemoteDialog*>(QStringLiteral("openRemoteDialog"))) {
        dialog->setLocation(location);
        dialog->startOpening();
    }
}

void MainWindow::showOpenRemoteDialog()
{
    if (auto* open = findChild<OpenRemoteDialog*>(QStringLiteral("openRemoteDialog"))) {
        open->raise();
        return;
    }
    QStringList remote;
    for (const QString& entry : m_recent->paths())
        if (looksLikeRemoteLocation(entry)) remote << entry;
    auto* dialog = new OpenRemoteDialog(remote, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        openDownloaded(dialog->openedLocation(), dialog->localPath(), dialog->lastFromCache());
    });
    dialog->open();
}

void MainWindow::openDownloaded(const QString& location, const QString& localPath, bool unchanged)
{
    ReportTab* tab = findReport(localPath);
    if (!tab)
        tab = openReport(localPath);
    else if (!unchanged)
        tab->load(); // a newer copy replaced the one shown
    m_remoteOrigins.insert(tab->path(), location);
    m_tabs->setTabToolTip(m_tabs->indexOf(tab), location);
    m_tabs->setCurrentWidget(tab);
}

ProfileDialog* MainWindow::profileDialog()
{
    if (!m_profileDialog) {
        m_profileDialog = new ProfileDialog(this);
        connect(m_profileDialog, &ProfileDialog::reportReady, this, &MainWindow::openProfiledReport);
    }
    return m_profileDialog;
}

void MainWindow::showProfileDialog()
{
    ProfileDialog* dialog = profileDialog();
    dialog->show();
    dialog->raise();
    dialog->activateWindow();
}

void MainWindow::openProfiledReport(const QString& path)
{
    // Profiling again into the same file: the tab showing the old report reloads it.
    if (ReportTab* existing = findReport(path)) {
        existing->load();
        m_tabs->setCurrentWidget(existing);
        return;
    }
    openReport(path);
}

ReportTab* MainWindow::showLoadedReport(const QString& path, std::shared_ptr<const Trace> trace)
{
    ReportTab* tab = findReport(path);
    if (!tab) tab = addTab(path);
    tab->showTrace(std::move(trace));
    m_tabs->setCurrentWidget(tab);
    onCurrentChanged();
    return tab;
}

ReportTab* MainWindow::addTab(const QString& path)
{
    auto* tab = new ReportTab(canonical(path));
    const int index = m_tabs->addTab(tab, tab->displayName());
    m_tabs->setTabToolTip(index, tab->path());
    connect(tab, &ReportTab::loaded, this, [this, tab](double seconds) { onReportLoaded(tab, seconds); });
    connect(
        tab, &ReportTab::loadFailed, this, [this, tab](const QString& error) { onReportFailed(tab, error); });
    connect(tab, &ReportTab::loadCancelled, this, [this, tab] { onReportCancelled(tab); });
    // The overview's timeline drives the menus and the status bar until the report replaces it.
    connect(tab, &ReportTab::overviewShown, this, [this, tab] {
        if (tab == currentReport()) onCurrentChanged();
    });
    m_tabs->setCurrentIndex(index);
    return tab;
}

ReportTab* MainWindow::findReport(const QString& path) const
{
    const QString wanted = canonical(path);
    for (int i = 0; i < m_tabs->count(); ++i) {
        if (report(i)->path() == wanted) return report(i);
    }
    return nullptr;
}

int MainWindow::reportCount() const
{
    return m_tabs->count();
}

ReportTab* MainWindow::report(int index) const
{
    return qobject_cast<ReportTab*>(m_tabs->widget(index));
}

ReportTab* MainWindow::currentReport() const
{
    return qobject_cast<ReportTab*>(m_tabs->currentWidget());
}

void MainWindow::closeReport(int index)
{
    if (ReportTab* tab = report(index)) removeTab(tab);
}

void MainWindow::closeCurrentReport()
{
    if (ReportTab* tab = currentReport()) removeTab(tab);
}

void MainWindow::reloadCurrentReport()
{
    if (ReportTab* tab = currentReport()) tab->load();
}

void MainWindow::removeTab(ReportTab* tab)
{
    tab->cancelLoad();
    m_tabs->removeTab(m_tabs->indexOf(tab));
    // Later: this may run inside one of the tab's own signals.
    tab->deleteLater();
    onCurrentChanged();
}

void MainWindow::onCurrentChanged()
{
    ReportTab* tab = currentReport();
    m_pages->setCurrentWidget(tab ? static_cast<QWidget*>(m_tabs) : m_emptyPage);
    if (!tab) m_emptyPage->setRecentFiles(m_recent->paths());
    setWindowTitle(
        tab ? QStringLiteral("Sightline — %1").arg(tab->displayName()) : QStringLiteral("Sightline"));
    m_viewMenu->setTimeline(tab ? tab->timeline() : nullptr);
    m_viewMenu->setReport(tab);
    m_status->setTimeline(tab ? tab->timeline() : nullptr);
    m_closeAction->setEnabled(tab != nullptr);
    m_reloadAction->setEnabled(tab != nullptr);
    // A tab chosen (or loaded in front) hands the keys to its timeline, as a report opening does.
    if (tab && tab->timeline() && tab->currentView() == ReportView::Timeline && isVisible())
        tab->timeline()->setFocus(Qt::TabFocusReason);
}

void MainWindow::onReportLoaded(ReportTab* tab, double seconds)
{
    m_recent->add(m_remoteOrigins.value(tab->path(), tab->path()));
    if (tab == currentReport()) onCurrentChanged();
    const size_t events = tab->timeline() ? tab->timeline()->trace().eventCount() : 0;
    statusBar()->showMessage(tr("Loaded %1: %2 events in %3 s")
                                 .arg(tab->displayName(), QLocale().toString(qulonglong(events)),
                                     QString::number(seconds, 'f', 2)),
        kStatusMessageMs);
}

void MainWindow::onReportFailed(ReportTab* tab, const QString& error)
{
    if (!QFileInfo::exists(tab->path())) m_recent->remove(tab->path());
    if (!tab->timeline()) removeTab(tab);
    showLoadError(error);
}

void MainWindow::onReportCancelled(ReportTab* tab)
{
    if (!tab->timeline()) removeTab(tab);
    statusBar()->showMessage(tr("Loading %1 was cancelled.").arg(tab->displayName()), kStatusMessageMs);
}

void MainWindow::showLoadError(const QString& error)
{
    // Window-modal and not blocking: other tabs keep loading while the message is up.
    auto* box
        = new QMessageBox(QMessageBox::Critical, tr("Cannot open report"), error, QMessageBox::Ok, this);
    box->setObjectName(QStringLiteral("loadErrorDialog"));
    box->setAttribute(Qt::WA_DeleteOnClose);
    box->open();
}

void MainWindow::showOpenDialog()
{
    QSettings settings;
    const QString directory = settings.value(kOpenDirectoryKey, QDir::homePath()).toString();
    const QStringList paths = QFileDialog::getOpenFileNames(this, tr("Open Report"), directory,
        tr("Traces (*.rep *.sqlite *.json *.json.gz);;Sightline reports (*.rep);;"
           "Nsight Systems SQLite exports (*.sqlite);;PyTorch profiler traces (*.json *.json.gz);;All files "
           "(*)"));
    if (paths.isEmpty()) return;
    settings.setValue(kOpenDirectoryKey, QFileInfo(paths.constFirst()).absolutePath());
    openReports(paths);
}

void MainWindow::dragEnterEvent(QDragEnterEvent* event)
{
    if (localFiles(event->mimeData()).isEmpty()) return;
    event->acceptProposedAction();
    m_emptyPage->setDropHighlighted(true);
}

void MainWindow::dragLeaveEvent(QDragLeaveEvent* /*event*/)
{
    m_emptyPage->setDropHighlighted(false);
}

void MainWindow::dropEvent(QDropEvent* event)
{
    m_emptyPage->setDropHighlighted(false);
    const QStringList paths = localFiles(event->mimeData());
    if (paths.isEmpty()) return;
    event->acceptProposedAction();
    openReports(paths);
}

void MainWindow::closeEvent(QCloseEvent* event)
{
    saveState();
    for (int i = 0; i < m_tabs->count(); ++i)
        report(i)->cancelLoad();
    event->accept();
}

void MainWindow::restoreState()
{
    if (m_options.persistState) {
        QSettings settings;
        if (restoreGeometry(settings.value(kGeometryKey).toByteArray())) {
            QMainWindow::restoreState(settings.value(kStateKey).toByteArray());
            return;
        }
    }
    const QScreen* screen = QApplication::primaryScreen();
    const QSize available = screen ? screen->availableSize() : QSize(1600, 1000);
    resize(std::min(1600, available.width() * 4 / 5), std::min(1000, available.height() * 4 / 5));
}

void MainWindow::saveState() const
{
    if (!m_options.persistState) return;
    QSettings settings;
    settings.setValue(kGeometryKey, saveGeometry());
    settings.setValue(kStateKey, QMainWindow::saveState());
}

} // namespace sightline::ui
