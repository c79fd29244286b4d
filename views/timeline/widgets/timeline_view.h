// The timeline of one report: a collapsible row tree on the left (CUDA HW > GPU > context >
// streams > Kernels / Memory; Processes > process > CPU Utilization, thread (its CPU states and
// samples) > CUDA API / NVTX / OS runtime), a time ruler on top and the event canvas. The shell (app/ui)
// embeds one per report tab and talks to it only through this interface; everything else is the view's own
// business.
#pragma once

#include "model/core/time.h"
#include "model/core/track.h"
#include "model/trace/trace.h"

#include <QWidget>
#include <memory>
#include <optional>
#include <vector>

namespace sightline::views {

class FindBar;
class RowHeaderPane;
class TimelineCanvas;
class TimelineState;
enum class TimelineAction : uint8_t;

class TimelineView : public QWidget
{
    Q_OBJECT
public:
    explicit TimelineView(std::shared_ptr<const Trace> trace, QWidget* parent = nullptr);
    ~TimelineView() override;

    const Trace& trace() const;
    // Shows `trace` in place of the one shown (another of the same report: its overview, its
    // events, a range of them, a re-read), keeping the window, the selection, the rows opened
    // or closed, the scroll position and the selected event (TimelineState::setTrace).
    void setTrace(std::shared_ptr<const Trace> trace);

    // The visible time range; setVisibleRange pushes the old one onto the zoom history.
    TimeRange visibleRange() const;
    void setVisibleRange(TimeRange range);
    void zoomToAll();
    void zoomBack();
    void zoomForward();

    // The dragged selection, if any.
    std::optional<TimeRange> selection() const;
    void setSelection(std::optional<TimeRange> range);
    void zoomToSelection(); // Shift+Z

    // The selected event and its correlated events are highlighted.
    std::optional<EventRef> selectedEvent() const;
    void selectEvent(std::optional<EventRef> event, bool centre = false);

    // Highlights the CPU sample ticks whose stack (CpuSample::stack) is in `sortedStacks`, a
    // sorted list of stack node ids (CallStackSelection::stacks); null clears the highlight.
    void setHighlightedStacks(std::shared_ptr<const std::vector<uint32_t>> sortedStacks);

    // A picture only: the trace's events are stand-ins (a report's overview, model/format/
    // report_overview.h), so the timeline offers no event tooltips, event selection or find;
    // zooming, panning and selecting a time range still work.
    void setPictureOnly(bool pictureOnly);
    bool isPictureOnly() const;

    // Additions beyond the shell's interface: row height (lane height in pixels), expanding
    // every row, the keyboard help dialog, running a key's action, and the parts, for tests
    // and the benchmark.
    void setLaneHeight(int pixels);
    void setAllRowsExpanded(bool expanded);
    void showKeyboardHelp();
    bool runAction(TimelineAction action);
    TimelineState& state() const;
    TimelineCanvas* canvas() const;
    RowHeaderPane* rowHeaders() const;
    FindBar* findBar() const;

signals:
    void visibleRangeChanged(sightline::TimeRange range);
    void selectionChanged(std::optional<sightline::TimeRange> range);
    void eventSelected(std::optional<sightline::EventRef> event);
    // A row's context menu > Show in Events View: the row's track and those of all its sub-rows.
    void showInEventsViewRequested(std::vector<sightline::TrackId> tracks);
    // The same on a counter row: its series (Trace::counterSeries).
    void showCounterInEventsViewRequested(uint32_t series);

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void refreshCorner();

    class Private;
    std::unique_ptr<Private> d;
};

} // namespace sightline::views
