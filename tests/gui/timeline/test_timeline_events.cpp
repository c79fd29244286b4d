// Events on the timeline with real input: hover tooltips, clicking a kernel highlights its
// API call (painted in teal, reachable off screen with one click), double-click zooms, Find,
// the keyboard help, and a rendered frame that looks like a timeline.
#include "model/trace/event_access.h"
#include "timeline_widget_fixture.h"
#include "views/events/event_columns.h"
#include "views/timeline/frame/event_style.h"
#include "views/timeline/interaction/correlated_events.h"
#include "views/timeline/interaction/navigation.h"
#include "views/timeline/widgets/find_bar.h"
#include "views/timeline/widgets/keyboard_help_dialog.h"

#include <QClipboard>
#include <QHelpEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QTimer>
#include <QToolTip>
#include <algorithm>
#include <catch2/catch.hpp>
#include <set>

using namespace sightline;
using namespace sightline::testing;

namespace {

// A kernel long enough to hover comfortably, with its launching call in the trace.
EventRef someKernel(const Trace& trace)
{
    const auto kernel = findEvent(trace, TrackKind::Kernels, [&](const Track& track, EventRef e) {
        return track.duration(e.index) > 20000 && views::launchingCall(trace, e).has_value();
    });
    REQUIRE(kernel);
    return *kernel;
}

int pixelsOf(const QImage& image, const QRect& area, QRgb color)
{
    int count = 0;
    const QRect clipped = area.intersected(image.rect());
    for (int y = clipped.top(); y <= clipped.bottom(); ++y)
        for (int x = clipped.left(); x <= clipped.right(); ++x)
            count += (image.pixel(x, y) & 0xffffff) == (color & 0xffffff) ? 1 : 0;
    return count;
}

} // namespace

TEST_CASE("Hovering a kernel shows a tooltip with its grid and block")
{
    ShownTimeline t;
    const EventRef kernel = someKernel(*t.trace);
    const KernelEvent k = kernelAt(*t.trace, kernel);
    t.view.setVisibleRange(views::framing(views::eventRange(*t.trace, kernel), 1.0));
    const QPoint at = t.onScreen(kernel);
    REQUIRE(t.canvas().eventAt(at) == kernel);

    QHelpEvent help(QEvent::ToolTip, at, t.canvas().mapToGlobal(at));
    QApplication::sendEvent(&t.canvas(), &help);
    const QString shown = QToolTip::text();
    const QString grid = QStringLiteral("grid:</td><td>&lt;&lt;&lt;%1, %2, %3&gt;&gt;&gt;")
                             .arg(k.launch.grid[0])
                             .arg(k.launch.grid[1])
                             .arg(k.launch.grid[2]);
    const QString block = QStringLiteral("block:</td><td>&lt;&lt;&lt;%1, %2, %3&gt;&gt;&gt;")
                              .arg(k.launch.block[0])
                              .arg(k.launch.block[1])
                              .arg(k.launch.block[2]);
    CHECK(shown.contains(grid));
    CHECK(shown.contains(block));
    CHECK(shown == t.canvas().toolTipAt(at));
}

TEST_CASE("A tooltip shown before Alt+Left leaves when the view goes back")
{
    ShownTimeline t;
    const EventRef kernel = someKernel(*t.trace);
    const TimeRange whole = t.view.visibleRange();
    t.view.setVisibleRange(views::framing(views::eventRange(*t.trace, kernel), 1.0));
    const QPoint at = t.onScreen(kernel);
    QHelpEvent help(QEvent::ToolTip, at, t.canvas().mapToGlobal(at));
    QApplication::sendEvent(&t.canvas(), &help);
    REQUIRE(QToolTip::isVisible());

    QTest::keyClick(&t.canvas(), Qt::Key_Left, Qt::AltModifier);
    REQUIRE(t.view.visibleRange() == whole);
    // The kernel described is no longer under the cursor: the tooltip must not stay.
    CHECK(QTest::qWaitFor([] { return !QToolTip::isVisible(); }, 2000));
}

TEST_CASE("A default stream has the same name in its timeline row and tooltip and in the Events View")
{
    ShownTimeline t;
    const Trace& trace = *t.trace;
    auto isDefaultStream = [&](const TrackKey& key) {
        return std::any_of(trace.streams.begin(), trace.streams.end(), [&](const CudaStream& s) {
            return s.isDefault && s.pid == key.pid && s.device == key.device && s.context == key.context
                && s.stream == key.stream;
        });
    };
    const auto kernel = findEvent(trace, TrackKind::Kernels, [&](const Track& track, EventRef e) {
        return isDefaultStream(track.key) && track.duration(e.index) > 20000;
    });
    REQUIRE(kernel);
    const TrackKey& key = trace.track(kernel->track).key;
    const QString name = QStringLiteral("Stream %1 (default)").arg(key.stream.value);

    const views::RowTree& rows = t.state().rows();
    CHECK(rows.node(rows.node(rows.leafOf(kernel->track)).parent).label.endsWith(name));

    t.view.setVisibleRange(views::framing(views::eventRange(trace, *kernel), 1.0));
    const QPoint at = t.onScreen(*kernel);
    REQUIRE(t.canvas().eventAt(at) == kernel);
    QHelpEvent help(QEvent::ToolTip, at, t.canvas().mapToGlobal(at));
    QApplication::sendEvent(&t.canvas(), &help);
    CHECK(QToolTip::text().contains(QStringLiteral("Stream:</td><td>%1</td>").arg(name)));

    CHECK(EventCells(trace).display(*kernel, EventColumn::ThreadOrStream) == name.toStdString());
}

TEST_CASE("Clicking a kernel selects it and highlights its API call, reachable with one click")
{
    ShownTimeline t;
    const EventRef kernel = someKernel(*t.trace);
    const EventRef call = *views::launchingCall(*t.trace, kernel);
    t.view.setVisibleRange(views::framing(views::eventRange(*t.trace, kernel), 2.0));
    const QPoint at = t.onScreen(kernel);
    QTest::mouseClick(&t.canvas(), Qt::LeftButton, {}, at);
    REQUIRE(t.view.selectedEvent() == kernel);
    CHECK(t.state().isHighlighted(call));
    t.settle();

    const QRectF screen(t.canvas().rect());
    auto place = views::primaryPlacement(t.state(), call);
    REQUIRE(place);
    if (!place->rect.intersects(screen)) {
        // Off screen: an arrow at the edge leads there in one click.
        const auto& targets = t.canvas().jumpTargets();
        const auto target = std::find_if(
            targets.begin(), targets.end(), [&](const views::JumpTarget& j) { return j.event == call; });
        REQUIRE(target != targets.end());
        QTest::mouseClick(&t.canvas(), Qt::LeftButton, {}, target->area.center().toPoint());
        t.settle();
        place = views::primaryPlacement(t.state(), call);
        REQUIRE(place);
        CHECK(place->rect.intersects(screen));
        CHECK(t.view.selectedEvent() == kernel);
    }
    // The call is outlined in the highlight colour on screen.
    const QImage image = t.canvas().grab().toImage();
    const QRgb teal = views::canvasColors(t.canvas().palette()).highlight;
    const QRect around = place->rect.toAlignedRect().adjusted(-3, -3, 3, 3);
    CHECK(pixelsOf(image, around, teal) > 10);
}

TEST_CASE("Clicking an API call highlights the GPU work it launched")
{
    ShownTimeline t;
    const EventRef kernel = someKernel(*t.trace);
    const EventRef call = *views::launchingCall(*t.trace, kernel);
    t.view.setAllRowsExpanded(true);
    t.view.setVisibleRange(views::framing(
        {views::eventRange(*t.trace, call).start, views::eventRange(*t.trace, kernel).end}, 0.5));
    const QPoint at = t.onScreen(call);
    QTest::mouseClick(&t.canvas(), Qt::LeftButton, {}, at);
    REQUIRE(t.view.selectedEvent() == call);
    CHECK(t.state().isHighlighted(kernel));
    CHECK(t.canvas().rectsOf(kernel).size() >= 2); // its own lane and the [All Streams] summary
}

TEST_CASE("Double-clicking an event zooms to it; Escape clears the selection")
{
    ShownTimeline t;
    const EventRef kernel = someKernel(*t.trace);
    t.view.setVisibleRange(views::framing(views::eventRange(*t.trace, kernel), 4.0));
    const QPoint at = t.onScreen(kernel);
    QTest::mouseDClick(&t.canvas(), Qt::LeftButton, {}, at);
    const TimeRange range = views::eventRange(*t.trace, kernel);
    CHECK(t.view.visibleRange() == views::framing(range, 0.05));
    CHECK(t.view.selectedEvent() == kernel);
    QTest::keyClick(&t.canvas(), Qt::Key_Escape);
    CHECK_FALSE(t.view.selectedEvent());
}

TEST_CASE("Ctrl+F finds events by name and zooms to each match")
{
    ShownTimeline t;
    t.canvas().setFocus();
    QTest::keyClick(&t.canvas(), Qt::Key_F, Qt::ControlModifier);
    views::FindBar* bar = t.view.findBar();
    REQUIRE(bar->isVisible());
    QTest::keyClicks(bar->field(), QStringLiteral("allreduce"));
    QTest::keyClick(bar->field(), Qt::Key_Return);
    const auto first = t.view.selectedEvent();
    REQUIRE(first);
    const Track& track = t.trace->track(first->track);
    CHECK(QString::fromStdString(std::string(t.trace->strings[track.events.name[first->index]]))
              .contains(QStringLiteral("allreduce"), Qt::CaseInsensitive));
    const TimeRange range = views::eventRange(*t.trace, *first);
    CHECK(t.view.visibleRange().start <= range.start);
    CHECK(t.view.visibleRange().end >= range.end);
    QTest::keyClick(bar->field(), Qt::Key_Return);
    const auto second = t.view.selectedEvent();
    REQUIRE(second);
    CHECK(second != first);
    CHECK(views::eventRange(*t.trace, *second).start >= range.start);
    QTest::keyClick(bar->field(), Qt::Key_Return, Qt::ShiftModifier);
    CHECK(t.view.selectedEvent() == first);
}

TEST_CASE("The find bar says how many events match rather than how many names")
{
    ShownTimeline t;
    uint64_t events = 0;
    std::set<uint32_t> names;
    for (const Track& track : t.trace->tracks)
        for (const StringId name : track.events.name)
            if (QString::fromStdString(std::string(t.trace->strings[name]))
                    .contains(QStringLiteral("memcpy"), Qt::CaseInsensitive)) {
                ++events;
                names.insert(name.value);
            }
    REQUIRE(events > names.size()); // else counting names would pass too

    t.canvas().setFocus();
    QTest::keyClick(&t.canvas(), Qt::Key_F, Qt::ControlModifier);
    views::FindBar* bar = t.view.findBar();
    QTest::keyClicks(bar->field(), QStringLiteral("memcpy"));
    QTest::keyClick(bar->field(), Qt::Key_Return);
    CHECK(bar->status() == QStringLiteral("%1 events match.").arg(QLocale().toString(qulonglong(events))));
}

TEST_CASE("F1 opens the keyboard help listing the timeline's keys")
{
    ShownTimeline t;
    QString listed;
    QTimer::singleShot(0, [&] {
        auto* dialog = qobject_cast<views::KeyboardHelpDialog*>(QApplication::activeModalWidget());
        if (!dialog) return;
        if (auto* text = dialog->findChild<QLabel*>(QStringLiteral("keyboardHelpText")))
            listed = text->text();
        dialog->reject();
    });
    QTest::keyClick(&t.canvas(), Qt::Key_F1);
    CHECK(listed.contains(QStringLiteral("Shift+Z")));
    CHECK(listed.contains(QStringLiteral("Ctrl+Wheel")));
    CHECK(listed.contains(QStringLiteral("Zoom to the selected time range")));
}

TEST_CASE("A rendered timeline shows every kind of row in its colours")
{
    ShownTimeline t;
    const QImage image = t.view.grab().toImage();
    if (const QByteArray path = qgetenv("SIGHTLINE_TIMELINE_PNG"); !path.isEmpty())
        image.save(QString::fromLocal8Bit(path));
    const QImage canvas = t.canvas().grab().toImage();
    const views::EventStyle style(*t.trace, views::canvasColors(t.canvas().palette()).dark);
    // Kernels (in their shades of blue), memory copies and API calls are all on screen.
    const auto kernel = findEvent(*t.trace, TrackKind::Kernels);
    const auto copy = findEvent(*t.trace, TrackKind::Memory);
    const auto api = findEvent(*t.trace, TrackKind::CudaApi);
    REQUIRE(kernel);
    REQUIRE(copy);
    REQUIRE(api);
    std::set<QRgb> kernelShades;
    const Track& kernels = t.trace->track(kernel->track);
    for (uint32_t i = 0; i < kernels.size(); ++i)
        kernelShades.insert(style.color(kernels, i) & 0xffffff);
    int kernelPixels = 0;
    for (int y = 0; y < canvas.height(); ++y)
        for (int x = 0; x < canvas.width(); ++x)
            kernelPixels += kernelShades.count(canvas.pixel(x, y) & 0xffffff) ? 1 : 0;
    CHECK(kernelPixels > 500);
    CHECK(pixelsOf(canvas, canvas.rect(), style.color(*copy)) > 50);
    CHECK(pixelsOf(canvas, canvas.rect(), style.color(*api)) > 50);
}

TEST_CASE("Ctrl+C copies the selected event's tooltip as plain text")
{
    ShownTimeline t;
    const EventRef kernel = someKernel(*t.trace);
    t.view.selectEvent(kernel, true);
    QTest::keyClick(&t.canvas(), Qt::Key_C, Qt::ControlModifier);
    const QString copied = QGuiApplication::clipboard()->text();
    const KernelEvent k = kernelAt(*t.trace, kernel);
    CHECK(copied.startsWith(QString::fromStdString(std::string(t.trace->strings[k.name]))));
    CHECK(copied.contains(QStringLiteral("grid: <<<%1, %2, %3>>>")
                              .arg(k.launch.grid[0])
                              .arg(k.launch.grid[1])
                              .arg(k.launch.grid[2])));
}

TEST_CASE("An empty report shows an empty timeline that still answers every key")
{
    auto empty = std::make_shared<const Trace>();
    views::TimelineView view(empty);
    view.resize(800, 500);
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    const TimeRange whole = view.visibleRange();
    CHECK_FALSE(whole.empty());
    for (int key : {int(Qt::Key_Plus), int(Qt::Key_Left), int(Qt::Key_Backspace), int(Qt::Key_Asterisk),
             int(Qt::Key_F3)})
        QTest::keyClick(view.canvas(), Qt::Key(key));
    QTest::mouseClick(view.canvas(), Qt::LeftButton, {}, QPoint(100, 100));
    CHECK_FALSE(view.selectedEvent());
    QTest::keyClick(view.canvas(), Qt::Key_Home);
    CHECK(view.visibleRange() == whole);
    const QImage image = view.grab().toImage();
    CHECK(image.width() == 800);
}
