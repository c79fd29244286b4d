// The Events View's actions with QTest input: selecting a row emits its event, a double-click
// asks for a zoom, selecting from outside does not echo, Ctrl+C copies TSV, the table exports
// to CSV, NVTX ranges expand to the events they contain, and a rendered frame for a look.
#include "events_test_support.h"
#include "model/events/event_rows.h"
#include "model/trace/event_access.h"
#include "test_paths.h"
#include "timeline_fixture.h"
#include "views/events/events_item_delegate.h"
#include "views/events/events_table_model.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QClipboard>
#include <QFile>
#include <QHeaderView>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <catch2/catch.hpp>

using namespace sightline;
using namespace sightline::testing;
using namespace sightline::views;

namespace {

QPoint cellCentre(const QTableView* table, int row, EventColumn column)
{
    return table->visualRect(table->model()->index(row, int(column))).center();
}

struct Shown
{
    std::shared_ptr<const Trace> trace = generatedTrace();
    EventsView view {trace};
    QAbstractItemModelTester tester {view.model(), QAbstractItemModelTester::FailureReportingMode::Fatal};

    explicit Shown(TrackKind kind)
    {
        view.resize(1400, 600);
        view.show();
        view.showEvents(tracksOfKind(*trace, kind));
        REQUIRE(waitUntilIdle(view));
    }
};

} // namespace

TEST_CASE("clicking a row emits its event and a double-click asks to zoom to it")
{
    Shown s(TrackKind::Kernels);
    QSignalSpy selected(&s.view, &EventsView::eventSelected);
    QSignalSpy zoom(&s.view, &EventsView::zoomToEventRequested);
    QTableView* table = s.view.table();

    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cellCentre(table, 3, EventColumn::Duration));
    REQUIRE(selected.count() == 1);
    const auto event = selected.at(0).at(0).value<EventRef>();
    CHECK(event == s.view.model()->eventAt(3));
    // The row shows that event: its start and duration cells match the kernel.
    const KernelEvent kernel = kernelAt(*s.trace, event);
    CHECK(s.view.model()->index(3, int(EventColumn::Name)).data().toString().toStdString()
        == std::string(s.trace->strings[kernel.name]));
    CHECK(s.view.model()
              ->index(3, int(EventColumn::Duration))
              .data(Qt::ToolTipRole)
              .toString()
              .remove(QLatin1Char(','))
        == QStringLiteral("%1 ns").arg(kernel.end - kernel.start));

    QTest::keyClick(table, Qt::Key_Down);
    REQUIRE(selected.count() == 2);
    CHECK(selected.at(1).at(0).value<EventRef>() == s.view.model()->eventAt(4));

    // QTest's double-click is the second click of a pair, as the platform delivers it.
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cellCentre(table, 5, EventColumn::Name));
    QTest::mouseDClick(table->viewport(), Qt::LeftButton, {}, cellCentre(table, 5, EventColumn::Name));
    REQUIRE(zoom.count() == 1);
    CHECK(zoom.at(0).at(0).value<EventRef>() == s.view.model()->eventAt(5));
}

TEST_CASE("selecting an event from outside selects its row without echoing it back")
{
    Shown s(TrackKind::Kernels);
    QSignalSpy selected(&s.view, &EventsView::eventSelected);
    const EventRef target = s.view.model()->eventAt(700);
    s.view.selectEvent(target);
    CHECK(s.view.table()->currentIndex().row() == 700);
    CHECK(s.view.table()->selectionModel()->isRowSelected(700, {}));
    CHECK(selected.count() == 0);
    // An event that is not listed (an API call in a kernel list) clears the selection.
    const auto call = findEvent(*s.trace, TrackKind::CudaApi);
    REQUIRE(call);
    s.view.selectEvent(*call);
    CHECK_FALSE(s.view.table()->selectionModel()->hasSelection());
    CHECK(selected.count() == 0);
}

TEST_CASE("Ctrl+C copies the selected rows as tab-separated text with a header line")
{
    Shown s(TrackKind::Memory);
    QTableView* table = s.view.table();
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {}, cellCentre(table, 2, EventColumn::Name));
    QTest::mouseClick(
        table->viewport(), Qt::LeftButton, Qt::ShiftModifier, cellCentre(table, 4, EventColumn::Name));
    QApplication::clipboard()->clear();
    QTest::keyClick(table, Qt::Key_C, Qt::ControlModifier);

    const QStringList lines = QApplication::clipboard()->text().split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    REQUIRE(lines.size() == 4);
    const QStringList header = lines[0].split(QLatin1Char('\t'));
    CHECK(header.contains(QStringLiteral("Bytes")));
    CHECK(header.contains(QStringLiteral("Copy kind")));
    const int nameColumn = int(header.indexOf(QStringLiteral("Name")));
    const int bytesColumn = int(header.indexOf(QStringLiteral("Bytes")));
    for (int r = 0; r < 3; ++r) {
        const QStringList fields = lines[r + 1].split(QLatin1Char('\t'));
        REQUIRE(fields.size() == header.size());
        const EventRef event = s.view.model()->eventAt(2 + r);
        CHECK(fields[nameColumn].toStdString() == nameOf(*s.trace, event));
        CHECK(fields[bytesColumn] == s.view.model()->index(2 + r, int(EventColumn::Bytes)).data().toString());
    }
}

TEST_CASE("the sorted, filtered table exports to CSV with plain numbers")
{
    Shown s(TrackKind::Memory);
    s.view.setNameFilter(QStringLiteral("Host-to-Device"));
    s.view.sortBy(EventColumn::Bytes, Qt::DescendingOrder);
    REQUIRE(waitUntilIdle(s.view));
    const auto path = test::scratchDir("events_csv") / "memory.csv";
    REQUIRE(s.view.exportCsv(QString::fromStdString(path.string())).ok());

    QFile file(QString::fromStdString(path.string()));
    REQUIRE(file.open(QIODevice::ReadOnly));
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    REQUIRE(lines.size() == int(s.view.listedCount()) + 1);
    const QStringList header = lines[0].split(QLatin1Char(','));
    const int bytes = int(header.indexOf(QStringLiteral("Bytes")));
    const int duration = int(header.indexOf(QStringLiteral("Duration (ns)")));
    REQUIRE(bytes >= 0);
    REQUIRE(duration >= 0);
    qlonglong previous = std::numeric_limits<qlonglong>::max();
    for (int r = 1; r < lines.size(); ++r) {
        const QStringList fields = lines[r].split(QLatin1Char(','));
        const EventRef event = s.view.model()->eventAt(r - 1);
        const MemoryEvent memory = memoryAt(*s.trace, event);
        REQUIRE(fields[bytes].toLongLong() == qlonglong(memory.bytes));
        REQUIRE(fields[duration].toLongLong() == memory.end - memory.start);
        REQUIRE(fields[bytes].toLongLong() <= previous);
        previous = fields[bytes].toLongLong();
        REQUIRE(memory.op.copyKind == CopyKind::HtoD);
    }
}

TEST_CASE("an NVTX range expands to the events it contains and collapses again")
{
    Shown s(TrackKind::Nvtx);
    EventsTableModel* model = s.view.model();
    // The first listed range that contains something.
    int row = -1;
    for (int r = 0; r < model->rowCount() && row < 0; ++r)
        if (model->isExpandable(r) && !eventsInsideRange(*s.trace, model->eventAt(r), 10).events.empty())
            row = r;
    REQUIRE(row >= 0);
    const int before = model->rowCount();
    const EventRef range = model->eventAt(row);
    const ContainedEvents expected = eventsInsideRange(*s.trace, range, EventsTableModel::kMaxChildren);

    QTableView* table = s.view.table();
    table->scrollTo(model->index(row, 0));
    const QRect cell = table->visualRect(model->index(row, int(EventColumn::Name)));
    QTest::mouseClick(table->viewport(), Qt::LeftButton, {},
        QPoint(cell.left() + EventsItemDelegate::kIndent / 2, cell.center().y()));
    REQUIRE(model->isExpanded(row));
    REQUIRE(model->rowCount() == before + int(expected.events.size()));
    for (size_t c = 0; c < expected.events.size(); ++c) {
        REQUIRE(model->depthOf(row + 1 + int(c)) == 1);
        REQUIRE(model->eventAt(row + 1 + int(c)) == expected.events[c]);
    }
    // The row after the children is the next listed range.
    CHECK(model->depthOf(row + 1 + int(expected.events.size())) == 0);
    // A contained event that is not itself listed (a CUDA API call in an NVTX list) is found
    // under its range; listed events are found at their own row.
    for (size_t c = 0; c < expected.events.size(); ++c)
        if (s.trace->track(expected.events[c].track).key.kind != TrackKind::Nvtx) {
            CHECK(model->rowOf(expected.events[c]) == row + 1 + int(c));
            break;
        }

    table->setCurrentIndex(model->index(row, 0));
    QTest::keyClick(table, Qt::Key_Left);
    CHECK_FALSE(model->isExpanded(row));
    CHECK(model->rowCount() == before);
    QTest::keyClick(table, Qt::Key_Right);
    CHECK(model->isExpanded(row));
}

TEST_CASE("the Events View renders like a profiler table")
{
    Shown s(TrackKind::Kernels);
    s.view.sortBy(EventColumn::Duration, Qt::DescendingOrder);
    REQUIRE(waitUntilIdle(s.view));
    s.view.table()->selectRow(2);
    const QImage image = s.view.grab().toImage();
    const auto path = test::scratchDir("events_render") / "events_view.png";
    REQUIRE(image.save(QString::fromStdString(path.string())));
    // Text is drawn: many distinct dark pixels in the table area.
    int dark = 0;
    for (int y = 60; y < image.height() - 40; y += 2)
        for (int x = 0; x < image.width(); x += 2)
            dark += qGray(image.pixel(x, y)) < 100 ? 1 : 0;
    CHECK(dark > 1000);

    // NVTX ranges with one expanded to the calls and GPU work inside it.
    EventsView nvtx(s.trace);
    nvtx.resize(1400, 600);
    nvtx.show();
    nvtx.showEvents(tracksOfKind(*s.trace, TrackKind::Nvtx));
    REQUIRE(waitUntilIdle(nvtx));
    for (int r = 0; r < nvtx.model()->rowCount(); ++r)
        if (nvtx.model()->isExpandable(r) && nvtx.model()->setExpanded(r, true) > 3) {
            nvtx.table()->scrollTo(nvtx.model()->index(r, 0), QAbstractItemView::PositionAtTop);
            nvtx.table()->selectRow(r + 2);
            break;
        }
    REQUIRE(nvtx.grab().save(QString::fromStdString((path.parent_path() / "events_view_nvtx.png").string())));
}
