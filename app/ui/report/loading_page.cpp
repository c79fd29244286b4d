#include "app/ui/report/loading_page.h"

#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace sightline::ui {

namespace {
constexpr int kProgressSteps = 1000; // the bar counts permille: file sizes overflow an int
} // namespace

LoadingPage::LoadingPage(QWidget* parent)
    : QWidget(parent)
{
    auto* column = new QVBoxLayout(this);
    column->addStretch(2);
    m_label = new QLabel(this);
    m_label->setAlignment(Qt::AlignCenter);
    column->addWidget(m_label);
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("loadProgress"));
    m_progress->setRange(0, kProgressSteps);
    m_progress->setMaximumWidth(480);
    m_progress->setMinimumWidth(320);
    column->addWidget(m_progress, 0, Qt::AlignHCenter);
    auto* cancel = new QPushButton(tr("Cancel"), this);
    cancel->setObjectName(QStringLiteral("cancelLoadButton"));
    connect(cancel, &QPushButton::clicked, this, &LoadingPage::cancelRequested);
    column->addWidget(cancel, 0, Qt::AlignHCenter);
    column->addStretch(3);
}

void LoadingPage::start(const QString& name)
{
    m_label->setText(tr("Loading %1…").arg(name));
    m_progress->setValue(0);
    m_progress->setFormat(tr("Opening…"));
}

void LoadingPage::setProgress(qint64 bytesDone, qint64 bytesTotal)
{
    m_progress->setValue(int(bytesDone * kProgressSteps / bytesTotal));
    const QLocale locale;
    // Once every byte is decoded the model still builds its indexes; say so rather than sit at 100%.
    m_progress->setFormat(bytesDone >= bytesTotal
            ? tr("Building indexes…")
            : tr("%1 of %2")
                  .arg(locale.formattedDataSize(bytesDone, 1), locale.formattedDataSize(bytesTotal, 1)));
}

} // namespace sightline::ui
