// A TimelineView on a generated report (or a given trace), shown on the offscreen platform at a fixed size,
// with helpers to send the input the tests need (Ctrl+wheel, tooltips) and to find where an event is drawn.
#pragma once

#include "model/import/importers.h"
#include "tests/test_paths.h"
#include "timeline_fixture.h"
#include "views/timeline/interaction/event_geometry.h"
#include "views/timeline/interaction/navigation.h"
#include "views/timeline/interaction/timeline_state.h"
#include "views/timeline/widgets/timeline_canvas.h"
#include "views/timeline/widgets/timeline_view.h"

#include <QApplication>
#include <QTest>
#include <QWheelEvent>
#include <catch2/catch.hpp>
#include <fstream>

namespace sightline::testing {

// The Chrome trace `json`, written to a scratch folder `name` and imported.
inline std::shared_ptr<const Trace> importedChromeTrace(const std::string& name, const char* json)
{
    const auto path = test::scratchDir(name) / "trace.json";
    std::ofstream(path) << json;
    Result<Trace> imported = importChromeTrace(path.string());
    INFO(imported.error());
    REQUIRE(imported);
    return std::make_shared<const Trace>(std::move(imported.value()));
}

struct ShownTimeline
{
    std::shared_ptr<const Trace> trace;
    views::TimelineView view;

    explicit ShownTimeline(std::shared_ptr<const Trace> shown = generatedTrace(), QSize size = {1400, 900})
        : trace(std::move(shown))
        , view(trace)
    {
        view.resize(size);
        view.show();
        REQUIRE(QTest::qWaitForWindowExposed(&view));
        settle();
    }

    views::TimelineCanvas& canvas() { return *view.canvas(); }
    views::TimelineState& state() { return view.state(); }

    // Lets queued paints and layouts run.
    void settle()
    {
        QApplication::processEvents();
        canvas().repaint();
    }

    void wheel(QPoint pos, int angle, Qt::KeyboardModifiers modifiers)
    {
        QWheelEvent event(QPointF(pos), QPointF(canvas().mapToGlobal(pos)), QPoint(), QPoint(0, angle),
            Qt::NoButton, modifiers, Qt::NoScrollPhase, false);
        QApplication::sendEvent(&canvas(), &event);
        settle();
    }

    // Where the event is drawn in its own lane, scrolled and panned into view.
    QPoint onScreen(EventRef event)
    {
        views::bringIntoView(state(), event, false);
        settle();
        const auto place = views::primaryPlacement(state(), event);
        REQUIRE(place);
        const QRectF visible = place->rect.intersected(QRectF(canvas().rect()));
        REQUIRE_FALSE(visible.isEmpty());
        return visible.center().toPoint();
    }
};

} // namespace sightline::testing
