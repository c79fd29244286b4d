// How the Events View's tables look. EventsItemDelegate draws the Name cells: an expand arrow (the style's
// own tree branch indicator) before an NVTX range that contains events, and an indent before the events shown
// inside an expanded range, so the flat table reads like a one-level tree. Other cells draw as usual.
#pragma once

#include <QStyledItemDelegate>
#include <initializer_list>

class QCheckBox;
class QHBoxLayout;
class QLabel;
class QLineEdit;
class QTableView;

namespace sightline::views {

// Sets up a table of events (columns as EventColumn) the Events View's way: whole-row
// selection, fixed row height, no grid, clickable headers whose clicks the owner handles (it
// sorts), and each column's width for its contents.
void setUpEventsTable(QTableView* table);

// The bar above an Events View's table: a bold title, then the name filter (its line edit and
// Regex box), to which the owner appends its own buttons.
struct EventsBar
{
    QHBoxLayout* layout = nullptr;
    QLabel* title = nullptr;
    QLineEdit* filter = nullptr;
    QCheckBox* regex = nullptr;
};
EventsBar buildEventsBar(QWidget* owner);
// Lays out an Events View: the bar, the table (or what holds it), then the status line and the
// widgets beside it.
void layOutEventsPane(QWidget* owner, const EventsBar& bar, QWidget* table, QLabel* status,
    std::initializer_list<QWidget*> besideStatus);

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
