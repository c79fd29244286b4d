// Which part of the recording goes into the report. The injection library records all the
// time; the launcher keeps the events that overlap the capture windows:
//  - cudaProfilerApi: from each cudaProfilerStart to the next cudaProfilerStop (any process);
//  - nvtx: every NVTX range named RANGE (in DOMAIN when given), in any process;
//  - --delay/--duration: [delay, delay + duration) after the target started, intersected with
//    the windows above when both are used.
// With no capture range and no delay/duration every event is kept.
#pragma once

#include "collector/convert/decode/decoded_process.h"

#include <optional>
#include <string>
#include <vector>

namespace sightline::collector {

enum class CaptureMode { None, CudaProfilerApi, Nvtx };

struct CaptureSpec
{
    CaptureMode mode = CaptureMode::None;
    std::string nvtxRange; // for CaptureMode::Nvtx
    std::string nvtxDomain; // empty: the default domain
    std::optional<Duration> delay; // nanoseconds after the target started
    std::optional<Duration> duration;
};

class CaptureWindows
{
public:
    // `sessionEnd` closes a window left open (a start without a stop).
    static CaptureWindows compute(const CaptureSpec& spec, const std::vector<ProcessCapture>& processes,
        TraceBuilder& builder, Timestamp sessionEnd);

    bool keepsEverything() const { return m_everything; }
    bool keeps(Timestamp start, Timestamp end) const;
    const std::vector<TimeRange>& windows() const { return m_windows; }

private:
    bool m_everything = true;
    std::vector<TimeRange> m_windows; // sorted, disjoint
};

} // namespace sightline::collector
