// Counter rows (GPU metrics) on screen: the GPU's "GPU Metrics" group lists one row per series,
// drawn as an area graph whose height is the value; collapsed, the GPU row shows SMs Active.
// The Memory row tells, on hover, what allocated or released the memory under the cursor.
#include "model/construct/memory_usage_series.h"
#include "model/construct/trace_builder.h"
#include "tests/test_paths.h"
#include "timeline_widget_fixture.h"
#include "unit/support/memory_usage_change.h"
#include "views/timeline/frame/event_style.h"

#include <QHelpEvent>
#include <QToolTip>
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
    ShownTimeline shown(metricsTrace(), {1000, 600});
    const auto& trace = shown.trace;
    views::TimelineView& view = shown.view;
    views::TimelineState& state = view.state();
    state.setVisible({0, 1'000'000'000}, views::HistoryMode::Record);
    shown.settle();

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

namespace {

constexpr Timestamp kMs = 1'000'000;

// One GPU and a process whose thread calls cudaMalloc at 100 ms (correlation 5) and cudaFree at
// 600 ms (correlation 6) around 256 MiB; 64 MiB more are allocated at 300 ms by no call the
// trace holds and kept to the end.
std::shared_ptr<const Trace> memoryTrace()
{
    TraceBuilder builder;
    builder.addGpu({DeviceId(0), "NVIDIA H100", "GPU-1", "", 9, 0, 132, 80ull << 30, 0, 0});
    builder.addProcess({Pid(40), "train", {}});
    builder.addThread({Pid(40), Tid(41), "main"});
    const TrackId api = builder.hostTrack(TrackKind::CudaApi, Pid(40), Tid(41));
    builder.add(api, ApiCall {100 * kMs, 101 * kMs, builder.intern("cudaMalloc"), CorrelationId(5), {}});
    builder.add(api, ApiCall {600 * kMs, 601 * kMs, builder.intern("cudaFree"), CorrelationId(6), {}});
    auto change
        = [](const test::MemoryChangeSpec& spec) { return test::memoryChange(Pid(40), DeviceId(0), spec); };
    addMemoryUsage(builder,
        {change({100 * kMs + 500, 256ull << 20, false, 0x7f0000000000, 5}),
            change({300 * kMs, 64ull << 20, false, 0x7f0010000000, 0}),
            change({600 * kMs + 500, 256ull << 20, true, 0x7f0000000000, 6})},
        1000 * kMs);
    return std::make_shared<const Trace>(builder.build());
}

} // namespace

TEST_CASE("The Memory row's tooltip names each allocation's API call, thread, address and lifetime")
{
    ShownTimeline shown(memoryTrace(), {1000, 600});
    views::TimelineView& view = shown.view;
    views::TimelineState& state = view.state();
    state.setVisible({0, 1000 * kMs}, views::HistoryMode::Record);
    shown.settle();

    const int memory = state.rows().find(QStringLiteral("Memory [B]"));
    REQUIRE(memory >= 0);
    const views::VisibleRow row = state.layout().rows()[size_t(state.layout().rowOfNode(memory))];
    auto tipAt = [&](Timestamp t) {
        return view.canvas()->toolTipAt(
            QPoint(int(state.scale().timeToX(t)), row.top + row.height / 2 - state.scrollY()));
    };
    // Between changes: the one that set the value, with its call and when it was released.
    const QString held = tipAt(200 * kMs);
    INFO(held.toStdString());
    CHECK(held.contains(QStringLiteral("256.000 MiB")));
    CHECK(held.contains(QStringLiteral("Last change")));
    CHECK(held.contains(QStringLiteral("+256.000 MiB Device at 0x7f0000000000 by cudaMalloc on main [41]")));
    CHECK(held.contains(QStringLiteral("released after 500.000 ms")));
    // On the change at 300 ms: an allocation no call of the trace made, never released.
    const QString kept = tipAt(300 * kMs);
    CHECK(kept.contains(QStringLiteral("Change here")));
    CHECK(kept.contains(QStringLiteral("+64.000 MiB Device at 0x7f0010000000, held to the end")));
    // A real hover shows it; kept for a look: build/test-scratch/gui-memory-tooltip/*.png
    const QPoint hover(int(state.scale().timeToX(200 * kMs)), row.top + row.height / 2 - state.scrollY());
    QHelpEvent help(QEvent::ToolTip, hover, view.canvas()->mapToGlobal(hover));
    QApplication::sendEvent(view.canvas(), &help);
    CHECK(QToolTip::text().contains(QStringLiteral("by cudaMalloc on main [41]")));
    const auto folder = test::scratchDir("gui-memory-tooltip");
    view.grab().save(QString::fromStdString((folder / "timeline.png").string()));
    for (QWidget* widget : QApplication::topLevelWidgets())
        if (widget->inherits("QTipLabel") && widget->isVisible())
            widget->grab().save(QString::fromStdString((folder / "tooltip.png").string()));
    QToolTip::hideText();
    // After the release: the release, by cudaFree.
    CHECK(tipAt(800 * kMs).contains(
        QStringLiteral("\u2212256.000 MiB Device at 0x7f0000000000 by cudaFree on main [41]")));
}
