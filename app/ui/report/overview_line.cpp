#include "app/ui/report/overview_line.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

namespace sightline::ui {

OverviewLineBar::OverviewLineBar(QWidget* parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("overviewLine"));
    setFrameShape(QFrame::StyledPanel);
    m_text = new QLabel(this);
    m_text->setObjectName(QStringLiteral("overviewText"));
    m_text->setWordWrap(true);
    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(8, 2, 4, 2);
    row->addWidget(m_text, 1);
    const auto button = [&](const QString& label, const char* name, const QString& tip, auto signal) {
        auto* pushButton = new QPushButton(label, this);
        pushButton->setObjectName(QString::fromLatin1(name));
        pushButton->setToolTip(tip);
        connect(pushButton, &QPushButton::clicked, this, signal);
        row->addWidget(pushButton);
        return pushButton;
    };
    m_loadRange = button(tr("Load Range"), "loadRangeButton",
        tr("Read the events that start in the selected time range"), &OverviewLineBar::loadRangeRequested);
    m_overview = button(tr("Overview"), "backToOverviewButton",
        tr("Let the loaded range go and show the whole report's overview"),
        &OverviewLineBar::overviewRequested);
    m_cancel = button(tr("Cancel"), "cancelOverviewLoadButton",
        tr("Stop loading the report's events and keep this overview"), &OverviewLineBar::cancelRequested);
}

void OverviewLineBar::setLine(const OverviewLine& line)
{
    m_text->setText(line.sentence);
    m_cancel->setVisible(line.offersCancel);
    m_loadRange->setVisible(line.offersLoadRange);
    m_overview->setVisible(line.offersOverview);
}

} // namespace sightline::ui
