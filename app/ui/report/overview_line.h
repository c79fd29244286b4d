// The line above the timeline while a report's overview or a range of it is shown: the
// document's sentence (what is shown, and why not all of it) with the buttons it offers: Load
// Range (read the selection's events), Overview (back to the whole report) and Cancel (stop a
// load and keep the overview).
#pragma once

#include "app/ui/document/report_document.h"

#include <QFrame>

class QLabel;
class QPushButton;

namespace sightline::ui {

class OverviewLineBar : public QFrame
{
    Q_OBJECT
public:
    explicit OverviewLineBar(QWidget* parent = nullptr);

    void setLine(const OverviewLine& line);

signals:
    void loadRangeRequested();
    void overviewRequested();
    void cancelRequested();

private:
    QLabel* m_text = nullptr;
    QPushButton* m_loadRange = nullptr;
    QPushButton* m_overview = nullptr;
    QPushButton* m_cancel = nullptr;
};

} // namespace sightline::ui
