// Panning reuses the last frame (frame_scroll.h): after any series of pans, the moved frame
// must show what a frame laid out and painted whole for the same window shows, labels at
// the edges included. The one allowed difference: a sub-pixel event that starts exactly on
// a pixel boundary may land one column over, because each frame's origin is rounded to a
// whole nanosecond (a thin column in a few frames, never growing from pan to pan).
#include "timeline_widget_fixture.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <random>
#include <vector>

using namespace sightline;
using namespace sightline::testing;

namespace {

// The pixel columns in which two frames differ.
int differingColumns(const QImage& a, const QImage& b)
{
    REQUIRE(a.size() == b.size());
    std::vector<bool> differs(size_t(a.width()), false);
    for (int y = 0; y < a.height(); ++y) {
        const auto* lineA = reinterpret_cast<const QRgb*>(a.constScanLine(y));
        const auto* lineB = reinterpret_cast<const QRgb*>(b.constScanLine(y));
        for (int x = 0; x < a.width(); ++x)
            if (lineA[x] != lineB[x]) differs[size_t(x)] = true;
    }
    return int(std::count(differs.begin(), differs.end(), true));
}

// A second view of the same trace that paints every frame whole: the reference.
struct WholeFrames
{
    views::TimelineView view;
    explicit WholeFrames(const ShownTimeline& shown)
        : view(shown.trace)
    {
        view.resize(shown.view.size());
        view.show();
        REQUIRE(QTest::qWaitForWindowExposed(&view));
        view.canvas()->setScrollReuse(false);
    }
    const QImage& frameOf(TimeRange window)
    {
        view.state().setVisible(window, views::HistoryMode::Skip);
        view.canvas()->layOut();
        view.canvas()->paintFrame();
        return view.canvas()->frame();
    }
};

} // namespace

TEST_CASE("A panned frame equals the frame painted whole for the window it shows")
{
    ShownTimeline t;
    WholeFrames reference(t);
    std::mt19937 random(11);
    const TimeRange all = t.state().bounds();
    for (const double fraction : {1.0, 0.2, 0.01, 0.0005}) {
        const Duration shown = Duration(double(all.duration()) * fraction);
        Timestamp start = all.start + (all.duration() - shown) / 3;
        const double nsPerPixel = double(shown) / t.canvas().width();
        int moved = 0, differing = 0;
        for (int pan = 0; pan < 40; ++pan) {
            // Whole and fractional pixels, both ways, now and then more than a screen.
            const double pixels
                = std::uniform_real_distribution<double>(-12, 12)(random) * (pan % 13 == 12 ? 80 : 1);
            start = std::clamp<Timestamp>(start + Timestamp(pixels * nsPerPixel), all.start, all.end - shown);
            t.state().setVisible({start, start + shown}, views::HistoryMode::Skip);
            t.canvas().layOut();
            t.canvas().paintFrame();
            moved += t.canvas().lastFrameMoved();
            const views::TimeScale drawn = t.canvas().drawList().scale;
            INFO("fraction " << fraction << " pan " << pan << " by " << pixels << " px");
            // The moved frame follows the wanted window to within half a pixel.
            CHECK(std::abs(double(drawn.visible().start - start)) <= nsPerPixel / 2 + 1);
            const int diff = differingColumns(t.canvas().frame(), reference.frameOf(drawn.visible()));
            CHECK(diff <= 1);
            differing += diff > 0;
        }
        INFO("fraction " << fraction);
        CHECK(moved >= 30); // the pans reused the frame; only the long jumps did not
        CHECK(differing <= 4);
    }
}
