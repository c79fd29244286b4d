// Draws the Events View's Name cells: an expand arrow (the style's own tree branch indicator)
// before an NVTX range that contains events, and an indent before the events shown inside an
// expanded range, so the flat table reads like a one-level tree. Other cells draw as usual.
#pragma once

#include <QStyledItemDelegate>

namespace sightline::views {

class EventsItemDelegate : public QStyledItemDelegate
{
    Q_OBJECT
public:
    using QStyledItemDelegate::QStyledItemDelegate;

    static constexpr int kIndent = 18;

    // Whether top-level names leave room for an arrow (only when some row can expand).
    void setBranchSpace(bool reserved) { m_branchSpace = reserved; }
    bool branchSpace() const { return m_branchSpace; }
    // True when `position` (viewport coordinates) lies on the arrow of the Name cell `index`.
    bool hitsArrow(const QModelIndex& index, const QRect& cellRect, QPoint position) const;

    void paint(
        QPainter* painter, const QStyleOptionViewItem& option, const QModelIndex& index) const override;
    QSize sizeHint(const QStyleOptionViewItem& option, const QModelIndex& index) const override;

private:
    int indentOf(const QModelIndex& index) const;

    bool m_branchSpace = false;
};

} // namespace sightline::views
