// One tab of the main window: one report file. While it loads the tab shows a progress page
// (bytes read, Cancel); once loaded it shows the report's TimelineView. Invariant: the newest
// load request of a tab wins. Starting a load cancels and forgets the one running, so a stale
// result never replaces a newer one; a failed or cancelled reload keeps the trace shown before.
#pragma once

#include "report_loader.h"

#include <QWidget>
#include <memory>

class QLabel;
class QProgressBar;
class QStackedLayout;

namespace sightline::views {
class TimelineView;
}

namespace sightline::ui {

class ReportTab : public QWidget
{
    Q_OBJECT
public:
    explicit ReportTab(QString path, QWidget* parent = nullptr);
    ~ReportTab() override;

    const QString& path() const { return m_path; }
    QString displayName() const; // the file name, for the tab and the window title

    // Loads the file in the background (again, for a reload).
    void load();
    // Shows a trace already in memory (the screenshot mode loads on the calling thread).
    void showTrace(std::shared_ptr<const Trace> trace);
    void cancelLoad();

    bool isLoading() const { return m_request != nullptr; }
    views::TimelineView* timeline() const { return m_timeline; }

signals:
    void loaded(double seconds);
    void loadFailed(const QString& error);
    void loadCancelled();

private:
    void onProgress(qint64 bytesDone, qint64 bytesTotal);
    void onFinished(const LoadOutcome& outcome);
    QWidget* buildLoadingPage();
    void showLoadingPage();

    QString m_path;
    QStackedLayout* m_pages = nullptr;
    QWidget* m_loadingPage = nullptr;
    QLabel* m_loadingLabel = nullptr;
    QProgressBar* m_progress = nullptr;
    views::TimelineView* m_timeline = nullptr;
    std::unique_ptr<LoadRequest> m_request;
};

} // namespace sightline::ui
