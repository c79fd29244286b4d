// A counter row in the Events View (issue 17): a timeline row of a GPU metric, right-clicked
// > Show in Events View, lists the series' samples (start, duration, end, value with its
// unit), within the timeline's selection when there is one; a click on the Value header sorts
// them largest first, a second click smallest first; a double-click zooms the timeline to the
// sample. Checked against the series itself, sample by sample, on a generated report with GPU
// metrics; and, on a hand-made series, the range rules, the name filter and values of either
// sign and unknown ones.
#include "events_test_support.h"
#include "generate.h"
#include "model/construct/trace_builder.h"
#include "model/export/events_text.h"
#include "test_paths.h"
#include "views/events/event_query.h"
#include "views/events/events_table_model.h"
#include "views/timeline/interaction/timeline_state.h"
#include "views/timeline/widgets/row_header_pane.h"
#include "views/timeline/widgets/timeline_view.h"

#include <QApplication>
#include <QContextMenuEvent>
#include <QHeaderView>
#include <QLabel>
#include <QMenu>
#include <QSplitter>
#include <QTableView>
#include <QTest>
#include <QTimer>
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <fstream>
#include <functional>

using namespace sightline;
using namespace sightline::testing;
using namespace sightline::views;

namespace {

std::shared_ptr<const Trace> traceWithMetrics()
{
    static const std::shared_ptr<const Trace> trace = [] {
        gen::GeneratorOptions options;
        options.events = 20000;
        options.gpuMetricsHz = 20000;
        return std::make_shared<const Trace>(gen::generateTrace(options));
    }();
    return trace;
}

// The timeline over the Events View, wired as the shell wires them (app/ui/report/report_tab.cpp).
struct TimelineOverEvents
{
    std::shared_ptr<const Trace> trace = traceWithMetrics();
    QSplitter window {Qt::Vertical};
    TimelineView* timeline = new TimelineView(trace);
    EventsView* events = new EventsView(trace);

    TimelineOverEvents()
    {
        window.addWidget(timeline);
        window.addWidget(events);
        window.resize(1400, 1000);
        QObject::connect(timeline, &TimelineView::showCounterInEventsViewRequested, events,
            [this](uint32_t series) { events->showCounter(series, timeline->selection()); });
        QObject::connect(events, &EventsView::zoomToRangeRequested, timeline, [this](TimeRange range) {
            const Duration margin = std::max<Duration>(range.duration() / 10, 1);
            timeline->setVisibleRange({range.start - margin, range.end + margin});
        });
        window.show();
        REQUIRE(QTest::qWaitForWindowExposed(&window));
    }

    // The row of the series named `name` (of the first GPU that has one), revealed and scrolled to.
    int counterRow(const std::string& name) const
    {
        TimelineState& state = timeline->state();
        const RowTree& rows = state.rows();
        for (size_t n = 0; n < rows.size(); ++n) {
            const RowNode& node = rows.node(int(n));
            if (node.kind != RowKind::Counter || trace->counterSeries[node.counter].name != name) continue;
            state.reveal(int(n));
            const VisibleRow& shown = state.layout().rows()[size_t(state.layout().rowOfNode(int(n)))];
            state.ensureVisible(shown.top, shown.bottom());
            QApplication::processEvents();
            return int(n);
        }
        return -1;
    }

    bool chooseFromRowMenu(int node, const QString& actionText) const
    {
        return testing::chooseFromRowMenu(*timeline->rowHeaders(), node, actionText);
    }

    void clickHeader(EventColumn column) const
    {
        QHeaderView* header = events->table()->horizontalHeader();
        const int x = header->sectionViewportPosition(int(column)) + header->sectionSize(int(column)) / 2;
        QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
        REQUIRE(waitUntilIdle(*events));
    }

    // The listed row's sample index, after checking that the row is a sample of `series`.
    uint32_t sampleAt(int row, uint32_t series) const
    {
        const EventRef ref = events->model()->eventAt(row);
        REQUIRE(counterSeriesOf(*trace, ref) == series);
        return ref.index;
    }
};

// The samples of `series` overlapping `range` (all of them without one), walked one by one.
std::vector<uint32_t> samplesOverlapping(const Trace& trace, uint32_t series, std::optional<TimeRange> range)
{
    const CounterTimeline& timeline = trace.timelineOf(trace.counterSeries[series]);
    std::vector<uint32_t> samples;
    for (uint32_t i = 0; i < timeline.size(); ++i)
        if (!range || (timeline.starts[i] < range->end && timeline.sampleEnd(i) > range->start))
            samples.push_back(i);
    return samples;
}

QString cell(const EventsView& view, int row, EventColumn column)
{
    return view.model()->data(view.model()->index(row, int(column))).toString();
}

} // namespace

TEST_CASE("Show in Events View on a counter row lists its samples, sorts them by value and zooms to one")
{
    TimelineOverEvents w;
    const int row = w.counterRow(gpu_metric::kSmsActive);
    REQUIRE(row >= 0);
    const uint32_t series = w.timeline->state().rows().node(row).counter;
    const CounterSeries& metric = w.trace->counterSeries[series];
    const CounterTimeline& timeline = w.trace->timelineOf(metric);
    REQUIRE(timeline.size() > 1000);
    REQUIRE(metric.resolution == 0.1); // values show with one decimal

    REQUIRE(w.chooseFromRowMenu(row, QStringLiteral("Show in Events View")));
    REQUIRE(waitUntilIdle(*w.events));
    CHECK(w.events->source().counter == series);
    CHECK(w.events->visibleColumns()
        == std::vector<EventColumn> {EventColumn::Name, EventColumn::Start, EventColumn::Duration,
            EventColumn::End, EventColumn::Value});
    CHECK(w.events->findChild<QLabel*>(QStringLiteral("eventsViewTitle"))
              ->text()
              .startsWith(QStringLiteral("SMs Active [%]")));

    // Every sample, in time order, with its times and its value.
    const std::vector<uint32_t> all = samplesOverlapping(*w.trace, series, std::nullopt);
    REQUIRE(w.events->listedCount() == all.size());
    CHECK(w.events->statusText().startsWith(
        QStringLiteral("%1 samples").arg(QLocale(QLocale::English).toString(qulonglong(all.size())))));
    size_t unknown = 0;
    for (int r = 0; r < int(all.size()); ++r) {
        const uint32_t i = w.sampleAt(r, series);
        REQUIRE(i == all[size_t(r)]);
        const double value = metric.values[i];
        unknown += std::isnan(value) ? 1 : 0;
        if (r % 97 != 0) continue;
        const auto& model = *w.events->model();
        REQUIRE(cell(*w.events, r, EventColumn::Name) == QString::fromStdString(metric.name));
        const QModelIndex start = model.index(r, int(EventColumn::Start));
        REQUIRE(model.data(start, Qt::ToolTipRole).toString().remove(QLatin1Char(','))
            == QStringLiteral("%1 ns").arg(timeline.starts[i]));
        const QModelIndex duration = model.index(r, int(EventColumn::Duration));
        REQUIRE(model.data(duration, Qt::ToolTipRole).toString().remove(QLatin1Char(','))
            == QStringLiteral("%1 ns").arg(timeline.sampleEnd(i) - timeline.starts[i]));
        REQUIRE(cell(*w.events, r, EventColumn::Value)
            == (std::isnan(value) ? QString() : QStringLiteral("%1 %").arg(value, 0, 'f', 1)));
    }

    SECTION("sorted by value: largest first on the first click, smallest first on the second")
    {
        std::vector<double> known;
        for (double v : metric.values)
            if (!std::isnan(v)) known.push_back(v);
        std::sort(known.begin(), known.end(), std::greater<>());
        REQUIRE(known.front() > known.back());

        w.clickHeader(EventColumn::Value);
        CHECK(w.events->query().sortColumn == EventColumn::Value);
        CHECK(w.events->statusText().contains(QStringLiteral("sorted by value, largest first")));
        REQUIRE(w.events->listedCount() == all.size());
        for (size_t r = 0; r < known.size(); ++r)
            REQUIRE(metric.values[w.sampleAt(int(r), series)] == known[r]);
        // Unknown samples have no value: they come last, in time order.
        for (size_t r = known.size(); r < all.size(); ++r)
            REQUIRE(std::isnan(metric.values[w.sampleAt(int(r), series)]));
        CHECK(all.size() - known.size() == unknown);
        // Equal values keep time order.
        for (size_t r = 1; r < known.size(); ++r)
            if (known[r] == known[r - 1])
                REQUIRE(w.sampleAt(int(r - 1), series) < w.sampleAt(int(r), series));

        const std::filesystem::path shot = test::scratchDir("events-counter-sorted") / "counter_samples.png";
        REQUIRE(w.window.grab().save(QString::fromStdString(shot.string())));
        INFO("screenshot " << shot.string());

        w.clickHeader(EventColumn::Value);
        CHECK(w.events->statusText().contains(QStringLiteral("sorted by value, smallest first")));
        std::reverse(known.begin(), known.end());
        for (size_t r = 0; r < known.size(); ++r)
            REQUIRE(metric.values[w.sampleAt(int(r), series)] == known[r]);
    }

    SECTION("a double-click zooms the timeline to the sample")
    {
        const int pick = int(all.size() / 2);
        const uint32_t i = w.sampleAt(pick, series);
        QTableView* table = w.events->table();
        table->scrollTo(w.events->model()->index(pick, 0));
        const QPoint at = table->visualRect(w.events->model()->index(pick, int(EventColumn::Value))).center();
        // A double-click is the second click of a pair.
        QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, at);
        QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, at);
        const TimeRange visible = w.timeline->visibleRange();
        CHECK(visible.start <= timeline.starts[i]);
        CHECK(visible.end >= timeline.sampleEnd(i));
        CHECK(visible.duration() <= 2 * (timeline.sampleEnd(i) - timeline.starts[i]));
    }

    SECTION("with a selection on the timeline, only the samples overlapping it")
    {
        const TimeRange selection {timeline.starts[100] + 1, timeline.starts[400] + 1};
        w.timeline->setSelection(selection);
        REQUIRE(w.chooseFromRowMenu(row, QStringLiteral("Show in Events View")));
        REQUIRE(waitUntilIdle(*w.events));
        CHECK(w.events->source().range == selection);
        const std::vector<uint32_t> inside = samplesOverlapping(*w.trace, series, selection);
        CHECK(inside.size() == 301);
        REQUIRE(w.events->listedCount() == inside.size());
        for (int r = 0; r < int(inside.size()); ++r)
            REQUIRE(w.sampleAt(r, series) == inside[size_t(r)]);
    }
}

TEST_CASE("counter samples list by range rule, filter by series name and sort by value of either sign")
{
    TraceBuilder builder;
    const uint32_t timeline = builder.addCounterTimeline({{0, 100, 200, 300, 400, 500}, 600});
    CounterSeries series;
    series.timeline = timeline;
    series.name = "Power delta";
    series.unit = "W";
    series.resolution = 0.5;
    series.values = {1.5, -2.0, 0.0, std::nan(""), -0.5, 3.0};
    builder.addCounterSeries(series);
    const Trace trace = builder.build();
    const EventCells cells(trace);
    auto indexes = [](const std::vector<EventRef>& rows) {
        std::vector<uint32_t> out;
        for (const EventRef& row : rows)
            out.push_back(row.index);
        return out;
    };

    EventSource source;
    source.counter = 0;
    const std::vector<EventRef> all = collectRows(trace, source);
    CHECK(indexes(all) == std::vector<uint32_t> {0, 1, 2, 3, 4, 5});
    CHECK(countRows(trace, source) == 6);
    CHECK(indexes(firstRowsByStart(trace, source, 2)) == std::vector<uint32_t> {0, 1});
    source.range = TimeRange {150, 350};
    CHECK(indexes(collectRows(trace, source)) == std::vector<uint32_t> {1, 2, 3});
    source.rule = RangeRule::StartingInside;
    CHECK(indexes(collectRows(trace, source)) == std::vector<uint32_t> {2, 3});

    CHECK(cells.display(all[1], EventColumn::Value) == "-2.0 W");
    std::string scratch;
    CHECK(cells.csv(all[1], EventColumn::Value, scratch) == "-2");
    CHECK(cells.display(all[3], EventColumn::Value).empty()); // not known
    CHECK(cells.display(all[1], EventColumn::Name) == "Power delta");
    CHECK(cells.display(all[1], EventColumn::ThreadOrStream).empty());
    CHECK(*cells.number(all[5], EventColumn::Duration) == 100);
    CHECK(*cells.number(all[5], EventColumn::End) == 600);

    CHECK(runEventQuery(cells, all, {{QStringLiteral("POWER")}, EventColumn::Start, Qt::AscendingOrder}).rows
        == all);
    CHECK(runEventQuery(cells, all, {{QStringLiteral("memcpy")}, EventColumn::Start, Qt::AscendingOrder})
              .rows.empty());
    // Unknown values have no key: they come last either way.
    CHECK(indexes(runEventQuery(cells, all, {{}, EventColumn::Value, Qt::AscendingOrder}).rows)
        == std::vector<uint32_t> {1, 4, 2, 0, 5, 3});
    CHECK(indexes(runEventQuery(cells, all, {{}, EventColumn::Value, Qt::DescendingOrder}).rows)
        == std::vector<uint32_t> {5, 0, 2, 4, 1, 3});
    CHECK(indexes(runEventQuery(cells, all, {{}, EventColumn::Duration, Qt::DescendingOrder}).rows)
        == std::vector<uint32_t> {0, 1, 2, 3, 4, 5});

    // Copied and exported like events: the shown text, and plain numbers in CSV.
    const std::vector<EventColumn> columns {
        EventColumn::Name, EventColumn::Start, EventColumn::Duration, EventColumn::End, EventColumn::Value};
    const QStringList copied
        = QString::fromStdString(eventsAsTsv(cells, std::span(all).subspan(1, 1), columns))
              .split(QLatin1Char('\n'));
    REQUIRE(copied.size() >= 2);
    CHECK(copied[0] == QStringLiteral("Name\tStart\tDuration\tEnd\tValue"));
    CHECK(copied[1].startsWith(QStringLiteral("Power delta\t")));
    CHECK(copied[1].endsWith(QStringLiteral("\t-2.0 W")));
    const std::filesystem::path csv = test::scratchDir("counter-samples-csv") / "samples.csv";
    REQUIRE(exportEventsCsv(cells, all, columns, csv.string(), {}).ok());
    std::ifstream file(csv);
    std::string header, first, second;
    std::getline(file, header);
    std::getline(file, first);
    std::getline(file, second);
    CHECK(header == "Name,Start (ns),Duration (ns),End (ns),Value");
    CHECK(first == "Power delta,0,100,100,1.5");
    CHECK(second == "Power delta,100,100,200,-2");
}
