#include "views/timeline/widgets/timeline_view.h"

#include "model/text/time_text.h"
#include "views/timeline/interaction/navigation.h"
#include "views/timeline/interaction/timeline_keys.h"
#include "views/timeline/interaction/timeline_state.h"
#include "views/timeline/widgets/find_bar.h"
#include "views/timeline/widgets/keyboard_help_dialog.h"
#include "views/timeline/widgets/row_header_pane.h"
#include "views/timeline/widgets/time_ruler.h"
#include "views/timeline/widgets/timeline_canvas.h"

#include <QGridLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QScrollBar>
#include <QSplitter>
#include <QVBoxLayout>

namespace sightline::views {

class TimelineView::Private
{
public:
    TimelineState* state = nullptr;
    FindBar* findBar = nullptr;
    QLabel* corner = nullptr;
    TimeRuler* ruler = nullptr;
    RowHeaderPane* headers = nullptr;
    TimelineCanvas* canvas = nullptr;
    QScrollBar* scrollBar = nullptr;
    QSplitter* splitter = nullptr;
};

namespace {

QString text(const std::string& s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

} // namespace

TimelineView::TimelineView(std::shared_ptr<const Trace> trace, QWidget* parent)
    : QWidget(parent)
    , d(std::make_unique<Private>())
{
    setObjectName(QStringLiteral("timelineView"));
    d->state = new TimelineState(std::move(trace), this);
    d->state->setLaneHeight(fontMetrics().height() + 6);
    TimelineState& state = *d->state;

    d->findBar = new FindBar(state, this);
    d->findBar->hide();
    d->corner = new QLabel(this);
    d->corner->setObjectName(QStringLiteral("timelineCorner"));
    d->corner->setContentsMargins(8, 0, 4, 0);
    d->ruler = new TimeRuler(state, this);
    d->headers = new RowHeaderPane(state, this);
    d->canvas = new TimelineCanvas(state, this);
    d->scrollBar = new QScrollBar(Qt::Vertical, this);
    d->corner->setFixedHeight(d->ruler->sizeHint().height());

    // Left column: corner over row headers; right column: ruler over canvas and scroll bar.
    auto* left = new QWidget(this);
    auto* leftLayout = new QVBoxLayout(left);
    leftLayout->setContentsMargins(0, 0, 0, 0);
    leftLayout->setSpacing(0);
    leftLayout->addWidget(d->corner);
    leftLayout->addWidget(d->headers, 1);
    auto* right = new QWidget(this);
    auto* rightLayout = new QGridLayout(right);
    rightLayout->setContentsMargins(0, 0, 0, 0);
    rightLayout->setSpacing(0);
    rightLayout->addWidget(d->ruler, 0, 0, 1, 2);
    rightLayout->addWidget(d->canvas, 1, 0);
    rightLayout->addWidget(d->scrollBar, 1, 1);
    d->splitter = new QSplitter(Qt::Horizontal, this);
    d->splitter->addWidget(left);
    d->splitter->addWidget(right);
    d->splitter->setStretchFactor(1, 1);
    d->splitter->setChildrenCollapsible(false);
    d->splitter->setSizes({d->headers->sizeHint().width(), 1000});
    d->splitter->setHandleWidth(3);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(d->findBar);
    layout->addWidget(d->splitter, 1);
    setFocusProxy(d->canvas);

    auto syncScrollBar = [this] {
        const QSignalBlocker block(d->scrollBar);
        d->scrollBar->setRange(0, d->state->maxScrollY());
        d->scrollBar->setPageStep(d->state->viewportHeight());
        d->scrollBar->setSingleStep(d->state->laneHeight());
        d->scrollBar->setValue(d->state->scrollY());
    };
    connect(&state, &TimelineState::rowsChanged, this, syncScrollBar);
    connect(&state, &TimelineState::scrollChanged, this, syncScrollBar);
    connect(d->scrollBar, &QScrollBar::valueChanged, &state, &TimelineState::setScrollY);

    auto updateCorner = [this] { refreshCorner(); };
    connect(&state, &TimelineState::visibleChanged, this, updateCorner);
    connect(&state, &TimelineState::selectionChanged, this, updateCorner);
    connect(&state, &TimelineState::visibleChanged, this, &TimelineView::visibleRangeChanged);
    connect(&state, &TimelineState::selectionChanged, this, &TimelineView::selectionChanged);
    connect(&state, &TimelineState::eventSelectionChanged, this, &TimelineView::eventSelected);
    connect(d->canvas, &TimelineCanvas::keyboardHelpRequested, this, &TimelineView::showKeyboardHelp);
    connect(d->headers, &RowHeaderPane::keyboardHelpRequested, this, &TimelineView::showKeyboardHelp);
    connect(d->headers, &RowHeaderPane::showInEventsViewRequested, this,
        &TimelineView::showInEventsViewRequested);
    connect(d->headers, &RowHeaderPane::showCounterInEventsViewRequested, this,
        &TimelineView::showCounterInEventsViewRequested);
    connect(d->findBar, &FindBar::closed, d->canvas, [this] { d->canvas->setFocus(); });
    syncScrollBar();
    refreshCorner();
}

TimelineView::~TimelineView() = default;

const Trace& TimelineView::trace() const
{
    return d->state->trace();
}
void TimelineView::setTrace(std::shared_ptr<const Trace> trace)
{
    d->state->setTrace(std::move(trace));
}
TimeRange TimelineView::visibleRange() const
{
    return d->state->visible();
}
void TimelineView::setVisibleRange(TimeRange range)
{
    d->state->setVisible(range, HistoryMode::Record);
}
void TimelineView::zoomToAll()
{
    d->state->zoomToAll();
}
void TimelineView::zoomBack()
{
    d->state->zoomBack();
}
void TimelineView::zoomForward()
{
    d->state->zoomForward();
}
std::optional<TimeRange> TimelineView::selection() const
{
    return d->state->selection();
}
void TimelineView::setSelection(std::optional<TimeRange> range)
{
    d->state->setSelection(range);
}
std::optional<EventRef> TimelineView::selectedEvent() const
{
    return d->state->selectedEvent();
}
TimelineState& TimelineView::state() const
{
    return *d->state;
}
TimelineCanvas* TimelineView::canvas() const
{
    return d->canvas;
}
RowHeaderPane* TimelineView::rowHeaders() const
{
    return d->headers;
}
FindBar* TimelineView::findBar() const
{
    return d->findBar;
}
void TimelineView::setHighlightedStacks(std::shared_ptr<const std::vector<uint32_t>> sortedStacks)
{
    d->canvas->setHighlightedStacks(std::move(sortedStacks));
}

void TimelineView::setPictureOnly(bool pictureOnly)
{
    d->canvas->setPictureOnly(pictureOnly);
    if (!pictureOnly) return;
    d->state->selectEvent(std::nullopt);
    d->findBar->hide();
}
bool TimelineView::isPictureOnly() const
{
    return d->canvas->isPictureOnly();
}

void TimelineView::setLaneHeight(int pixels)
{
    d->state->setLaneHeight(pixels);
}
void TimelineView::setAllRowsExpanded(bool expanded)
{
    d->state->setAllExpanded(expanded);
}

void TimelineView::zoomToSelection()
{
    if (const auto range = d->state->selection(); range && !range->empty())
        d->state->setVisible(*range, HistoryMode::Record);
}

void TimelineView::selectEvent(std::optional<EventRef> event, bool centre)
{
    d->state->selectEvent(event);
    if (event && centre) bringIntoView(*d->state, *event, false);
}

void TimelineView::showKeyboardHelp()
{
    KeyboardHelpDialog dialog(this);
    dialog.exec();
}

void TimelineView::refreshCorner()
{
    const TimeRange visible = d->state->visible();
    QString info = tr("View %1").arg(text(formatDuration(visible.duration())));
    if (const auto selection = d->state->selection())
        info += QStringLiteral("<br>")
            + tr("<b>Selection %1</b>").arg(text(formatDuration(selection->duration())));
    d->corner->setText(info);
}

bool TimelineView::runAction(TimelineAction action)
{
    TimelineState& state = *d->state;
    const double width = state.scale().width();
    const QPoint mouse = d->canvas->mapFromGlobal(QCursor::pos());
    const double anchor = d->canvas->rect().contains(mouse) ? mouse.x() : width / 2;
    switch (action) {
    case TimelineAction::ZoomIn:
        state.zoomAround(anchor, kKeyZoomStep, HistoryMode::Gesture);
        break;
    case TimelineAction::ZoomOut:
        state.zoomAround(anchor, 1 / kKeyZoomStep, HistoryMode::Gesture);
        break;
    case TimelineAction::PanLeft:
        state.panBy(-width * kKeyPanFraction, HistoryMode::Gesture);
        break;
    case TimelineAction::PanRight:
        state.panBy(width * kKeyPanFraction, HistoryMode::Gesture);
        break;
    case TimelineAction::ScrollUp:
        state.setScrollY(state.scrollY() - state.laneHeight());
        break;
    case TimelineAction::ScrollDown:
        state.setScrollY(state.scrollY() + state.laneHeight());
        break;
    case TimelineAction::PageUp:
        state.setScrollY(state.scrollY() - state.viewportHeight());
        break;
    case TimelineAction::PageDown:
        state.setScrollY(state.scrollY() + state.viewportHeight());
        break;
    case TimelineAction::ZoomToSelection:
        zoomToSelection();
        break;
    case TimelineAction::ZoomToEvent:
        if (auto event = state.selectedEvent()) bringIntoView(state, *event, true);
        break;
    case TimelineAction::ZoomBack:
        zoomBack();
        break;
    case TimelineAction::ZoomForward:
        zoomForward();
        break;
    case TimelineAction::ZoomToAll:
        zoomToAll();
        break;
    case TimelineAction::ClearSelection:
        if (d->findBar->isVisible()) d->findBar->hide();
        state.setSelection(std::nullopt);
        state.selectEvent(std::nullopt);
        break;
    case TimelineAction::Find:
        if (!isPictureOnly()) d->findBar->activate();
        break;
    case TimelineAction::FindNext:
        if (isPictureOnly()) break;
        if (d->findBar->field()->text().isEmpty())
            d->findBar->activate();
        else
            d->findBar->findNext();
        break;
    case TimelineAction::FindPrevious:
        if (isPictureOnly()) break;
        if (d->findBar->field()->text().isEmpty())
            d->findBar->activate();
        else
            d->findBar->findPrevious();
        break;
    case TimelineAction::CopyTooltip:
        if (auto event = state.selectedEvent()) d->canvas->copyToolTip(*event);
        break;
    case TimelineAction::TallerRows:
        state.setLaneHeight(state.laneHeight() + 2);
        break;
    case TimelineAction::ShorterRows:
        state.setLaneHeight(state.laneHeight() - 2);
        break;
    case TimelineAction::ExpandAll:
        state.setAllExpanded(true);
        break;
    case TimelineAction::CollapseAll:
        state.setAllExpanded(false);
        break;
    case TimelineAction::KeyboardHelp:
        showKeyboardHelp();
        break;
    }
    return true;
}

void TimelineView::keyPressEvent(QKeyEvent* event)
{
    if (const std::optional<TimelineAction> action = actionFor(*event)) {
        runAction(*action);
        event->accept();
        return;
    }
    QWidget::keyPressEvent(event);
}

} // namespace sightline::views
