// The time ruler above the canvas: adaptive ticks and session-relative labels (see
// ruler_ticks.h), the dragged selection as a bracket, marks at the selected and correlated
// events, and the time under the mouse in a small box. Dragging it pans; Ctrl+wheel zooms
// around the mouse. Its x axis is the canvas's: both start at the same left edge.
#pragma once

#include "views/timeline/interaction/timeline_state.h"

#include <QWidget>

namespace sightline::views {

class TimeRuler : public QWidget
{
    Q_OBJECT
public:
    explicit TimeRuler(TimelineState& state, QWidget* parent = nullptr);
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override { return sizeHint(); }

protected:
    void paintEvent(QPaintEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void leaveEvent(QEvent* event) override;

private:
    void paintMarks(QPainter& painter);
    void paintCursor(QPainter& painter);

    TimelineState& m_state;
    std::optional<QPointF> m_pressPos;
    TimeScale m_pressScale;
};

} // namespace sightline::views
