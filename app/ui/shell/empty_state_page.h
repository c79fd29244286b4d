// What the main window shows when no report is open: how to open one (Ctrl+O or drop a file),
// an Open button and the most recent reports as links. It draws a dashed drop zone in the
// palette's colours so that it reads well in light and dark themes; the drop itself is handled
// by the main window.
#pragma once

#include <QStringList>
#include <QWidget>

class QLabel;

namespace sightline::ui {

class EmptyStatePage : public QWidget
{
    Q_OBJECT
public:
    explicit EmptyStatePage(QWidget* parent = nullptr);

    void setRecentFiles(const QStringList& paths); // the first few are shown as links
    void setDropHighlighted(bool highlighted); // while a file is dragged over the window

signals:
    void openRequested(); // the Open button
    void recentRequested(const QString& path);

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    QLabel* m_recent;
    bool m_dropHighlighted = false;
};

} // namespace sightline::ui
