// The hover tooltip of one event, with the fields Nsight Systems shows for its kind:
//  kernel: name, begin/end/duration, grid, block, launch type, registers per thread, static
//    and dynamic shared memory, local memory, stream, device, context, correlation id, the
//    launching thread and the latency from its API call;
//  memcpy/memset: size, throughput, copy kind, source and destination memory kinds (or the
//    memset value and memory kind), stream, device, correlation id, latency;
//  API call: name, duration, return code, correlation id, its GPU work and latency to it, and
//    the backtrace recorded with it (--cudabacktrace);
//  NVTX: text, domain, category, style, duration, depth, colour, payload;
//  NVTX projected onto a GPU: text, the span of its GPU work, how many GPU operations, domain,
//    style, the launching thread and the device;
//  OS runtime: name, duration, return value, and its backtrace when one was recorded.
// A tooltip may end with a list under a heading (a call stack, leaf first). Rendered as rich
// text for the tooltip and as plain text for Copy tooltip.
#pragma once

#include "model/trace/trace.h"

#include <QString>
#include <QStringList>
#include <vector>

namespace sightline::views {

struct TooltipField
{
    QString label;
    QString value;
};

struct EventTooltip
{
    QString title; // the event's name
    QString kind; // "CUDA kernel", "CUDA memcpy", "NVTX range", ...
    std::vector<TooltipField> fields;
    QString listTitle; // "Backtrace", "Call stack": the heading of `list`
    QStringList list;

    QString html() const;
    QString plainText() const;
    // The value of the field with this label, or a null string.
    QString value(const QString& label) const;
};

EventTooltip describeEvent(const Trace& trace, EventRef event);

// Fields and lines tooltips share: "name [tid]"; Begins, Ends and Duration.
QString threadText(const Trace& trace, Tid tid);
void addTiming(EventTooltip& tip, Timestamp start, Timestamp end);

// A call stack of Trace::cpu as tooltip lines, leaf first: "function — module", at most
// `limit` frames and then a line saying how many more there are.
constexpr size_t kTooltipStackFrames = 12;
QStringList stackLines(const Trace& trace, uint32_t stack, size_t limit = kTooltipStackFrames);

} // namespace sightline::views
