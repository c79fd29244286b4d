// A timeline replacing its trace by another of the same report (TimelineState::setTrace): a
// re-read whose tracks come in another order, so that every TrackId differs, and a range of
// the report. The window, the selection, the rows opened and closed, the row at the top of the
// view and the selected event stay, told apart by what they show; the widgets draw, find and
// describe the new trace.
#include "generate.h"
#include "model/format/report_io.h"
#include "model/import/open_trace.h"
#include "model/open/source_identity.h"
#include "timeline_widget_fixture.h"
#include "views/timeline/interaction/timeline_keys.h"
#include "views/timeline/widgets/find_bar.h"

#include <QLineEdit>
#include <algorithm>
#include <map>

using namespace sightline;

namespace {

std::shared_ptr<const Trace> openReport(const std::string& path, const ReadOptions& options = {})
{
    Result<Trace> opened = openTrace(path, options);
    REQUIRE(opened);
    identifySource(opened.value(), path);
    return std::make_shared<const Trace>(std::move(opened.value()));
}

// The report read again with its tracks in reverse order: the same rows, other TrackIds.
std::shared_ptr<const Trace> rereadReversed(const std::string& path)
{
    Result<Trace> opened = openTrace(path);
    REQUIRE(opened);
    identifySource(opened.value(), path);
    Trace& trace = opened.value();
    std::reverse(trace.tracks.begin(), trace.tracks.end());
    trace.buildIndexes();
    trace.setFlows({});
    return std::make_shared<const Trace>(std::move(trace));
}

// A row as a user names it: the labels from its root down. Stream and kernel labels carry a
// share of GPU time, the same in a re-read.
QString pathOf(const views::RowTree& rows, int node)
{
    QString path = rows.node(node).label;
    for (int p = rows.node(node).parent; p >= 0; p = rows.node(p).parent)
        path = rows.node(p).label + QStringLiteral(" / ") + path;
    return path;
}

std::map<QString, bool> expansionByPath(const views::RowTree& rows)
{
    std::map<QString, bool> expanded;
    for (size_t n = 0; n < rows.size(); ++n)
        if (rows.node(int(n)).isGroup()) expanded[pathOf(rows, int(n))] = rows.node(int(n)).expanded;
    return expanded;
}

struct TopRow
{
    QString path;
    int offset = 0; // how far the view starts below the row's top
    bool operator==(const TopRow&) const = default;
};

TopRow topRowOf(const views::TimelineState& state)
{
    const int row = state.layout().rowAt(state.scrollY());
    REQUIRE(row >= 0);
    const views::VisibleRow& shown = state.layout().rows()[size_t(row)];
    return {pathOf(state.rows(), shown.node), state.scrollY() - shown.top};
}

struct EventFacts
{
    TrackKey key;
    Timestamp start = 0, end = 0;
    std::string name;
    bool operator==(const EventFacts&) const = default;
};

EventFacts factsOf(const Trace& trace, EventRef event)
{
    const Track& track = trace.track(event.track);
    return {track.key, track.events.start[event.index], track.events.end[event.index],
        std::string(trace.strings[track.events.name[event.index]])};
}

// Changes the rows from how they open: the first GPU closed, a stream of it opened, the first
// process's first thread closed; then zooms to the kernel, selects a range round it, selects
// the kernel and scrolls so that the top row is cut.
EventRef chooseView(views::TimelineView& view)
{
    views::TimelineState& state = view.state();
    const views::RowTree& rows = state.rows();
    int gpu = -1, stream = -1, thread = -1;
    for (size_t n = 0; n < rows.size(); ++n) {
        const views::RowNode& node = rows.node(int(n));
        if (node.kind == views::RowKind::Gpu && gpu < 0) gpu = int(n);
        if (node.kind == views::RowKind::Stream && stream < 0 && !node.expanded) stream = int(n);
        if (node.kind == views::RowKind::Thread && thread < 0 && node.expanded) thread = int(n);
    }
    REQUIRE(gpu >= 0);
    REQUIRE(stream >= 0);
    REQUIRE(thread >= 0);
    state.setExpanded(stream, true);
    state.setExpanded(thread, false);
    const std::optional<EventRef> kernel = testing::findEvent(view.trace(), TrackKind::Kernels,
        [&](const Track&, EventRef e) { return rows.node(rows.leafOf(e.track)).parent == stream; });
    REQUIRE(kernel);
    const TimeRange range = views::eventRange(view.trace(), *kernel);
    view.setVisibleRange({range.start - range.duration() * 20, range.end + range.duration() * 20});
    view.setSelection(TimeRange {range.start - range.duration(), range.end + range.duration()});
    view.selectEvent(kernel);
    state.setExpanded(gpu, false);
    state.setScrollY(state.maxScrollY() / 2 + 5);
    return *kernel;
}

} // namespace

TEST_CASE("a timeline given a re-read report whose TrackIds all differ keeps what the user chose")
{
    const auto dir = test::scratchDir("timeline-trace-swap-reread");
    const std::string path = (dir / "report.rep").string();
    REQUIRE(writeReport(gen::generateTrace({.events = 20000}), path).ok());
    testing::ShownTimeline shown(openReport(path), {1200, 500}); // short: the rows scroll
    views::TimelineView& view = shown.view;
    const EventRef kernel = chooseView(view);
    shown.settle();
    REQUIRE(view.state().scrollY() > 0);
    const TimeRange visible = view.visibleRange();
    const std::optional<TimeRange> selection = view.selection();
    const std::map<QString, bool> expansion = expansionByPath(view.state().rows());
    const TopRow top = topRowOf(view.state());
    REQUIRE(top.offset > 0);
    const EventFacts selected = factsOf(view.trace(), kernel);
    const std::shared_ptr<const Trace> before = shown.trace;

    view.setTrace(rereadReversed(path));
    shown.settle();

    REQUIRE(&view.trace() != before.get());
    CHECK(view.visibleRange() == visible);
    CHECK(view.selection() == selection);
    CHECK(expansionByPath(view.state().rows()) == expansion);
    CHECK(topRowOf(view.state()) == top);
    const std::optional<EventRef> now = view.selectedEvent();
    REQUIRE(now);
    CHECK(now->track != kernel.track); // the tracks came in the other order
    CHECK(factsOf(view.trace(), *now) == selected);
    CHECK_FALSE(view.state().correlated().empty()); // its launching call, in the new trace

    // The widgets work on the new trace: the frame draws its events, a tooltip describes the
    // kernel, find steps through its names.
    const views::DrawList& drawn = shown.canvas().drawList();
    CHECK(std::any_of(drawn.lanes.begin(), drawn.lanes.begin() + ptrdiff_t(drawn.laneCount),
        [](const views::LaneDraw& lane) { return !lane.boxes.empty(); }));
    views::bringIntoView(view.state(), *now, false);
    shown.settle();
    const std::vector<QRectF> rects = shown.canvas().rectsOf(*now);
    const auto onScreen = std::find_if(rects.begin(), rects.end(),
        [&](const QRectF& rect) { return shown.canvas().rect().contains(rect.center().toPoint()); });
    REQUIRE(onScreen != rects.end());
    const QString tip = shown.canvas().toolTipAt(onScreen->center().toPoint());
    INFO(tip.toStdString() << " / " << selected.name);
    CHECK(tip.contains(QString::fromStdString(selected.name).toHtmlEscaped()));
    view.runAction(views::TimelineAction::Find);
    view.findBar()->field()->setText(QString::fromStdString(selected.name));
    view.findBar()->findNext();
    REQUIRE(view.selectedEvent());
    CHECK(
        view.trace()
            .strings[view.trace().track(view.selectedEvent()->track).events.name[view.selectedEvent()->index]]
        == selected.name);
}

TEST_CASE(
    "a timeline given a range of its report keeps the view, and the selected event where the range holds it")
{
    const auto dir = test::scratchDir("timeline-trace-swap-range");
    const std::string path = (dir / "report.rep").string();
    WriteOptions write;
    write.eventsPerChunk = 512; // so that a range reads fewer events than the whole
    REQUIRE(writeReport(gen::generateTrace({.events = 20000}), path, write).ok());
    testing::ShownTimeline shown(openReport(path), {1200, 500});
    views::TimelineView& view = shown.view;
    const EventRef kernel = chooseView(view);
    shown.settle();
    const TimeRange visible = view.visibleRange();
    const std::optional<TimeRange> selection = view.selection();
    const std::map<QString, bool> expansion = expansionByPath(view.state().rows());
    const EventFacts selected = factsOf(view.trace(), kernel);

    ReadOptions range;
    range.select.startsIn = visible;
    const std::shared_ptr<const Trace> part = openReport(path, range);
    REQUIRE(part->eventCount() < shown.trace->eventCount());
    view.setTrace(part);
    shown.settle();

    CHECK(view.visibleRange() == visible);
    CHECK(view.selection() == selection);
    // Rows the range still has keep their state (its stream shares differ: by kind and level).
    const std::map<QString, bool> now = expansionByPath(view.state().rows());
    int kept = 0;
    for (const auto& [row, expanded] : now)
        if (const auto was = expansion.find(row); was != expansion.end()) {
            CHECK(expanded == was->second);
            ++kept;
        }
    CHECK(kept > 0);
    REQUIRE(view.selectedEvent());
    CHECK(factsOf(view.trace(), *view.selectedEvent()) == selected);

    // A range that does not hold the event lets it go.
    ReadOptions elsewhere;
    elsewhere.select.startsIn = TimeRange {part->span.start, part->span.start + 1};
    view.setTrace(openReport(path, elsewhere));
    CHECK_FALSE(view.selectedEvent());
    CHECK(view.visibleRange() == visible);
}
