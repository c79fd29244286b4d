#include "report_tab.h"

#include "views/timeline/timeline_view.h"

#include <QFileInfo>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QStackedLayout>
#include <QVBoxLayout>

namespace sightline::ui {

namespace {
constexpr int kProgressSteps = 1000; // the bar counts permille: file sizes overflow an int
}

ReportTab::ReportTab(QString path, QWidget* parent)
    : QWidget(parent)
    , m_path(std::move(path))
{
    m_pages = new QStackedLayout(this);
    m_loadingPage = buildLoadingPage();
    m_pages->addWidget(m_loadingPage);
}

ReportTab::~ReportTab() = default;

QString ReportTab::displayName() const
{
    return QFileInfo(m_path).fileName();
}

QWidget* ReportTab::buildLoadingPage()
{
    auto* page = new QWidget(this);
    auto* column = new QVBoxLayout(page);
    column->addStretch(2);

    m_loadingLabel = new QLabel(page);
    m_loadingLabel->setAlignment(Qt::AlignCenter);
    column->addWidget(m_loadingLabel);

    m_progress = new QProgressBar(page);
    m_progress->setObjectName(QStringLiteral("loadProgress"));
    m_progress->setRange(0, kProgressSteps);
    m_progress->setMaximumWidth(480);
    m_progress->setMinimumWidth(320);
    column->addWidget(m_progress, 0, Qt::AlignHCenter);

    auto* cancel = new QPushButton(tr("Cancel"), page);
    cancel->setObjectName(QStringLiteral("cancelLoadButton"));
    connect(cancel, &QPushButton::clicked, this, &ReportTab::cancelLoad);
    column->addWidget(cancel, 0, Qt::AlignHCenter);

    column->addStretch(3);
    return page;
}

void ReportTab::showLoadingPage()
{
    m_loadingLabel->setText(tr("Loading %1…").arg(displayName()));
    m_progress->setValue(0);
    m_progress->setFormat(tr("Opening…"));
    m_pages->setCurrentWidget(m_loadingPage);
}

void ReportTab::load()
{
    // The newest request wins: the running one is cancelled and its signals are dropped with it.
    if (m_request) m_request->cancel();
    m_request = std::make_unique<LoadRequest>(m_path);
    connect(m_request.get(), &LoadRequest::progressed, this, &ReportTab::onProgress);
    connect(m_request.get(), &LoadRequest::finished, this, &ReportTab::onFinished);
    showLoadingPage();
    m_request->start();
}

void ReportTab::cancelLoad()
{
    if (m_request) m_request->cancel();
}

void ReportTab::onProgress(qint64 bytesDone, qint64 bytesTotal)
{
    if (bytesTotal <= 0) return;
    m_progress->setValue(int(bytesDone * kProgressSteps / bytesTotal));
    const QLocale locale;
    // Once every byte is decoded the model still builds its indexes; say so rather than sit at 100%.
    m_progress->setFormat(bytesDone >= bytesTotal
            ? tr("Building indexes…")
            : tr("%1 of %2")
                  .arg(locale.formattedDataSize(bytesDone, 1), locale.formattedDataSize(bytesTotal, 1)));
}

void ReportTab::onFinished(const LoadOutcome& outcome)
{
    // The request is the sender: it is deleted once its signal has returned.
    m_request.release()->deleteLater();
    switch (outcome.status) {
    case LoadOutcome::Status::Loaded:
        showTrace(outcome.trace);
        emit loaded(outcome.seconds);
        return;
    case LoadOutcome::Status::Failed:
        if (m_timeline) m_pages->setCurrentWidget(m_timeline);
        emit loadFailed(outcome.error);
        return;
    case LoadOutcome::Status::Cancelled:
        if (m_timeline) m_pages->setCurrentWidget(m_timeline);
        emit loadCancelled();
        return;
    }
}

void ReportTab::showTrace(std::shared_ptr<const Trace> trace)
{
    auto* timeline = new views::TimelineView(std::move(trace), this);
    timeline->setObjectName(QStringLiteral("timeline"));
    m_pages->addWidget(timeline);
    m_pages->setCurrentWidget(timeline);
    if (m_timeline) {
        m_pages->removeWidget(m_timeline);
        m_timeline->deleteLater();
    }
    m_timeline = timeline;
}

} // namespace sightline::ui
