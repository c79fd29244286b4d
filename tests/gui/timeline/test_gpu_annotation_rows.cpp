// Ranges a PyTorch trace places on a GPU stream (gpu_user_annotation, as HolisticTraceAnalysis'
// rank-0 trace writes them: pid = device 0, tid = stream 7, no context) are drawn in a row of
// that stream, under the GPU, beside the stream's kernels; no CPU thread row is made up for them.
#include "timeline_widget_fixture.h"
#include "unit/support/hta_annotation_trace.h"

#include <catch2/catch.hpp>

using namespace sightline;

namespace {

TrackId onlyTrack(const Trace& trace, TrackKind kind)
{
    std::optional<TrackId> found;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t)
        if (trace.tracks[t].key.kind == kind && trace.tracks[t].size() > 0) {
            REQUIRE_FALSE(found);
            found = TrackId(t);
        }
    REQUIRE(found);
    return *found;
}

// The row tree as indented labels, for failure messages.
std::string outline(const views::RowTree& rows)
{
    std::string text;
    for (size_t n = 0; n < rows.size(); ++n)
        text.append(size_t(2 * rows.node(int(n)).depth), ' ')
            .append(rows.node(int(n)).label.toStdString())
            .append("\n");
    return text;
}

// The nearest row above `node` of `kind`, or -1.
int ancestorOf(const views::RowTree& rows, int node, views::RowKind kind)
{
    for (int p = rows.node(node).parent; p >= 0; p = rows.node(p).parent)
        if (rows.node(p).kind == kind) return p;
    return -1;
}

} // namespace

TEST_CASE("A gpu_user_annotation range is drawn under its GPU stream's row, not on a CPU 'Thread [0]' row")
{
    const std::shared_ptr<const Trace> trace
        = testing::importedChromeTrace("gui-gpu-annotation", test::kHtaAnnotatedStreamJson);
    const TrackId kernels = onlyTrack(*trace, TrackKind::Kernels);
    const TrackId ranges = onlyTrack(*trace, TrackKind::Nvtx);

    testing::ShownTimeline shown(trace, {1000, 420});
    views::TimelineView& view = shown.view;
    // Collapsed, a stream row shows its kernels only: the annotated stream starts open.
    CHECK(view.state().rows().isShown(view.state().rows().leafOf(ranges)));
    view.setAllRowsExpanded(true);
    view.setVisibleRange(views::framing(trace->span, 1.2));
    shown.settle();

    const views::RowTree& rows = view.state().rows();
    INFO(outline(rows));
    // No CPU row for a thread 0 of the device's process; the host's one thread keeps its row.
    CHECK(rows.find(QStringLiteral("Thread [0]")) == -1);
    for (size_t n = 0; n < rows.size(); ++n)
        if (rows.node(int(n)).kind == views::RowKind::Thread)
            CHECK_THAT(rows.node(int(n)).label.toStdString(), !Catch::EndsWith("[0]"));
    CHECK(rows.find(QStringLiteral("Thread [4096]")) >= 0);

    const int rangeRow = rows.leafOf(ranges);
    const int kernelRow = rows.leafOf(kernels);
    REQUIRE(rangeRow >= 0);
    REQUIRE(kernelRow >= 0);
    CHECK(rows.node(rangeRow).kind == views::RowKind::Nvtx);
    CHECK_THAT(rows.node(rangeRow).label.toStdString(), Catch::StartsWith("NVTX"));
    CHECK(ancestorOf(rows, rangeRow, views::RowKind::Processes) == -1);

    // The range's row and the kernels' row are children of one stream row, "... Stream 7", of
    // the GPU's tree.
    const int stream = rows.node(rangeRow).parent;
    REQUIRE(stream >= 0);
    CHECK(rows.node(stream).kind == views::RowKind::Stream);
    CHECK_THAT(rows.node(stream).label.toStdString(), Catch::EndsWith("Stream 7"));
    CHECK(rows.node(kernelRow).parent == stream);
    const int gpu = ancestorOf(rows, rangeRow, views::RowKind::Gpu);
    REQUIRE(gpu >= 0);
    CHECK_THAT(rows.node(gpu).label.toStdString(), Catch::StartsWith("CUDA HW (GPU 0"));
    // Annotations are no GPU work: the stream's busy share is its kernels'.
    CHECK(rows.node(stream).tracks == std::vector<TrackId> {kernels});

    // On screen, the range is drawn in its own row, below the stream's row.
    const int streamShown = view.state().layout().rowOfNode(stream);
    const int rangeShown = view.state().layout().rowOfNode(rangeRow);
    REQUIRE(streamShown >= 0);
    REQUIRE(rangeShown > streamShown);
    const EventRef range {ranges, 0};
    CHECK(trace->strings[trace->track(ranges).events.name[0]] == "## backward ##");
    const auto place = views::primaryPlacement(view.state(), range);
    REQUIRE(place);
    CHECK(place->ownLane);
    CHECK(place->row == rangeShown);
    const views::VisibleRow& rangeLine = view.state().layout().rows()[size_t(rangeShown)];
    CHECK(place->rect.top() + view.state().scrollY() >= rangeLine.top);
    CHECK(place->rect.bottom() + view.state().scrollY() <= rangeLine.bottom());
    view.grab().save(
        QString::fromStdString((test::scratchDir("gui-gpu-annotation-shot") / "rows.png").string()));
}
