#include "timeline_frames.h"

#include "views/timeline/interaction/timeline_state.h"
#include "views/timeline/widgets/timeline_canvas.h"

namespace sightline::bench {

FrameTimes measureFrames(views::TimelineView& view, const Trace& trace, double fraction)
{
    views::TimelineState& state = view.state();
    views::TimelineCanvas& canvas = *view.canvas();
    const Duration span = trace.span.duration();
    const Duration shown
        = std::max<Duration>(views::TimeScale::kMinimumDuration, Duration(double(span) * fraction));
    const Duration step = std::max<Duration>(1, Duration(3.0 * double(shown) / canvas.width()));
    // Start a third into the trace, in the thick of the training loop.
    Timestamp start = fraction >= 1.0 ? trace.span.start : trace.span.start + span / 3;
    std::vector<int64_t> layout, paint, frame;
    FrameTimes result;
    for (int f = -10; f < kFrames; ++f) { // 10 warm-up frames
        state.setVisible({start, start + shown}, views::HistoryMode::Skip);
        start += f % 2 == 0 ? step : -step / 2;
        Stopwatch clock;
        canvas.layOut();
        const int64_t laidOut = clock.nanoseconds();
        canvas.paintFrame();
        const int64_t total = clock.nanoseconds();
        if (f == -10) result.firstFrameNs = double(total);
        if (f < 0) continue;
        layout.push_back(laidOut);
        paint.push_back(total - laidOut);
        frame.push_back(total);
    }
    const views::DrawList& list = canvas.drawList();
    result.lanes = list.laneCount;
    result.rows = list.rows.size();
    result.boxes = list.boxCount();
    result.bars = list.barCount();
    result.layout = percentiles(layout);
    result.paint = percentiles(paint);
    result.frame = percentiles(frame);
    return result;
}

} // namespace sightline::bench
