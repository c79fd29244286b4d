// One chart of the Analysis Summary: a titled frame holding a QCustomPlot, a row for the
// chart's own controls, and "Export PNG…". The plot is styled once here (fonts, grid, axis
// pens from the palette) so the four charts look alike; the chart's data is the owner's job.
#pragma once

#include <QFrame>

class QCustomPlot;
class QHBoxLayout;
class QLabel;

namespace sightline::views {

class ChartPanel : public QFrame
{
    Q_OBJECT
public:
    explicit ChartPanel(const QString& title, QWidget* parent = nullptr);

    QCustomPlot* plot() const { return m_plot; }
    // Widgets added here sit between the title and the export button.
    QHBoxLayout* controls() const { return m_controls; }
    QString title() const;

    // Clears the plot's data, items and extra graphs, keeping its styling.
    void clear();
    // A centred note on an empty plot ("No CUDA kernels in the selection").
    void showEmptyNote(const QString& text);

    // Writes the chart as it is drawn to a PNG. Returns an empty string on success, else one
    // sentence naming the file and what to do.
    QString exportPng(const QString& path) const;

public slots:
    void exportInteractively();

private:
    QLabel* m_title = nullptr;
    QCustomPlot* m_plot = nullptr;
    QHBoxLayout* m_controls = nullptr;
};

// The colours charts draw with: bar fills by index, from a palette that reads on light and
// dark backgrounds.
QColor chartColor(int index);

} // namespace sightline::views
