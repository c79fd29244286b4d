// Counter rows (GPU metrics) on screen: the GPU's "GPU Metrics" group lists one row per series,
// drawn as an area graph whose height is the value; collapsed, the GPU row shows SMs Active.
#include "model/build/trace_builder.h"
#include "timeline_widget_fixture.h"
#include "views/timeline/frame/event_style.h"

#include <catch2/catch.hpp>

using namespace sightline;
using namespace sightline::testing;

namespace {

// One GPU, 1000 samples over one second: SMs Active 100 in the first half and 0 after it;
// Tensor Active 50 throughout.
std::shared_ptr<const Trace> metricsTrace()
{
    TraceBuilder builder;
    builder.addGpu({DeviceId(0), "NVIDIA H100", "GPU-1", "", 9, 0, 132, 80ull << 30, 0, 0});
    CounterTimeline timeline;
    for (int i = 0; i < 1000; ++i)
        timeline.starts.push_back(Timestamp(i) * 1'000'000);
    timeline.end = 1'000'000'000;
    const uint32_t index = builder.addCounterTimeline(std::move(timeline));
    for (const char* name : {"SMs Active", "Tensor Active"}) {
        CounterSeries series;
        series.device = DeviceId(0);
        series.timeline = index;
        series.name = name;
        series.unit = "%";
        series.resolution = 0.1;
        for (int i = 0; i < 1000; ++i)
            series.values.push_back(std::string(name) == "SMs Active" ? (i < 500 ? 100.0 : 0.0) : 50.0);
        builder.addCounterSeries(std::move(series));
    }
    return std::make_shared<const Trace>(builder.build());
}

// The rows of the canvas a counter row covers, and how many of them hold its colour in column x.
int filledPixels(const QImage& canvas, const views::VisibleRow& row, int scrollY, int x, QRgb color)
{
    int filled = 0;
    for (int y = row.top - scrollY; y < row.bottom() - scrollY; ++y)
        filled += (y >= 0 && y < canvas.height() && (canvas.pixel(x, y) & 0xffffff) == (color & 0xffffff))
            ? 1
            : 0;
    return filled;
}

} // namespace

TEST_CASE("GPU metric rows draw each series as an area graph of its values")
{
    const auto trace = metricsTrace();
    views::TimelineView view {trace};
    view.resize(1000, 600);
    view.show();
    REQUIRE(QTest::qWaitForWindowExposed(&view));
    QApplication::processEvents();
    views::TimelineState& state = view.state();
    state.setVisible({0, 1'000'000'000}, views::HistoryMode::Record);
    QApplication::processEvents();
    view.canvas()->repaint();

    const views::RowTree& rows = state.rows();
    const int metrics = rows.find(QStringLiteral("GPU Metrics"));
    const int sm = rows.find(QStringLiteral("SMs Active [%]"));
    const int tensor = rows.find(QStringLiteral("Tensor Active [%]"));
    REQUIRE(metrics >= 0);
    REQUIRE(sm >= 0);
    REQUIRE(tensor >= 0);
    CHECK(rows.node(sm).parent == metrics);
    CHECK(rows.node(rows.node(metrics).parent).kind == views::RowKind::Gpu);

    const QImage canvas = view.canvas()->grab().toImage();
    const views::VisibleRow smRow = state.layout().rows()[size_t(state.layout().rowOfNode(sm))];
    const views::VisibleRow tensorRow = state.layout().rows()[size_t(state.layout().rowOfNode(tensor))];
    const QRgb green = views::EventStyle::counterColor(trace->counterSeries[0]);
    const QRgb purple = views::EventStyle::counterColor(trace->counterSeries[1]);
    const int quarter = canvas.width() / 4, threeQuarters = 3 * canvas.width() / 4;
    const int inner = smRow.height - 3; // less the gap above and below and the separator line
    // 100% fills the row; 0% leaves it empty; 50% fills half of it.
    CHECK(filledPixels(canvas, smRow, 0, quarter, green) >= inner - 1);
    CHECK(filledPixels(canvas, smRow, 0, threeQuarters, green) == 0);
    const int half = filledPixels(canvas, tensorRow, 0, threeQuarters, purple);
    CHECK(half >= inner / 2 - 2);
    CHECK(half <= inner / 2 + 2);

    // Hovering shows the value under the cursor, and with a selection the mean over it.
    const QPoint onSm(quarter, smRow.top + smRow.height / 2 - state.scrollY());
    const QString tip = view.canvas()->toolTipAt(onSm);
    CHECK(tip.contains(QStringLiteral("SMs Active")));
    CHECK(tip.contains(QStringLiteral("100.0 %")));
    state.setSelection(TimeRange {0, 1'000'000'000});
    CHECK(view.canvas()->toolTipAt(onSm).contains(QStringLiteral("Selection mean")));
    CHECK(view.canvas()->toolTipAt(onSm).contains(QStringLiteral("50.0 %")));
    state.setSelection(std::nullopt);

    // Collapsed, the GPU row shows SMs Active.
    const int gpu = rows.node(metrics).parent;
    CHECK(rows.node(gpu).counter == 0);
    state.setExpanded(gpu, false);
    QApplication::processEvents();
    view.canvas()->repaint();
    const QImage collapsed = view.canvas()->grab().toImage();
    const views::VisibleRow gpuRow = state.layout().rows()[size_t(state.layout().rowOfNode(gpu))];
    CHECK(gpuRow.height == int(views::kCounterRowLanes) * state.laneHeight());
    CHECK(filledPixels(collapsed, gpuRow, 0, quarter, green) >= gpuRow.height - 4);
    CHECK(filledPixels(collapsed, gpuRow, 0, threeQuarters, green) == 0);
}
