// One chart of the Analysis Summary: a titled frame holding a QCustomPlot, the chart's own
// controls (in the title's row, or in a row of their own under it), and "Export PNG…". The
// plot is styled once here (fonts, grid, axis pens from the palette) so the four charts look
// alike; the chart's data is the owner's job.
#pragma once

#include "model/common/result.h"

#include <QFrame>

class QCustomPlot;
class QHBoxLayout;
class QLabel;

namespace sightline::views {

class ChartPanel : public QFrame
{
    Q_OBJECT
public:
    // Where the chart's own controls go: in the title's row, right-aligned before the export
    // button, or in a row of their own under it, whose width an Expanding control fills (a
    // choice of long names).
    enum class ControlsRow : uint8_t { Title, OwnRow };

    explicit ChartPanel(
        const QString& title, QWidget* parent = nullptr, ControlsRow row = ControlsRow::Title);

    QCustomPlot* plot() const { return m_plot; }
    // Widgets added here go where the ControlsRow says.
    QHBoxLayout* controls() const { return m_controls; }
    QString title() const;

    // Clears the plot's data, items and extra graphs, keeping its styling.
    void clear();
    // A centred note on an empty plot ("No CUDA kernels in the selection").
    void showEmptyNote(const QString& text);

    // Writes the chart as it is drawn to a PNG; a failure names the file and what to do.
    Status exportPng(const QString& path) const;

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
