#include "views/timeline/tooltips/thread_cpu_tooltip.h"

#include "model/text/time_text.h"

namespace sightline::views {
namespace {

QString text(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

} // namespace

EventTooltip describeThreadState(const Trace& trace, const ThreadStateInterval& state)
{
    EventTooltip tip;
    tip.title = QString::fromLatin1(threadStateName(state.state));
    tip.kind = QStringLiteral("Thread state");
    addTiming(tip, state.start, state.end);
    tip.fields.push_back({QStringLiteral("Thread"), threadText(trace, state.tid)});
    if (state.stack != kNoCallStack) {
        tip.listTitle = QStringLiteral("Left the CPU from");
        tip.list = stackLines(trace, state.stack);
    }
    return tip;
}

EventTooltip describeCpuSample(const Trace& trace, const CpuSample& sample)
{
    EventTooltip tip;
    tip.kind = QStringLiteral("CPU sample");
    tip.title = tip.kind;
    const std::vector<uint32_t> frames = trace.cpu.framesOf(sample.stack);
    if (!frames.empty() && frames.front() < trace.cpu.frames.size())
        tip.title = text(trace.strings[trace.cpu.frames[frames.front()].function]);
    tip.fields.push_back({QStringLiteral("Time"), text(formatTimestamp(sample.time))});
    tip.fields.push_back({QStringLiteral("Thread"), threadText(trace, sample.tid)});
    tip.fields.push_back({QStringLiteral("CPU"), QString::number(sample.cpu)});
    if (frames.empty()) {
        tip.fields.push_back({QStringLiteral("Call stack"), QStringLiteral("not recorded")});
    } else {
        tip.listTitle = QStringLiteral("Call stack");
        tip.list = stackLines(trace, sample.stack);
    }
    return tip;
}

EventTooltip describeThreadCpu(const Trace& trace, ThreadCpuHit hit)
{
    const CpuProfile& cpu = trace.cpu;
    if (hit.kind == ThreadCpuHit::Kind::Sample)
        return hit.index < cpu.samples.size() ? describeCpuSample(trace, cpu.samples[hit.index])
                                              : EventTooltip {};
    return hit.index < cpu.states.size() ? describeThreadState(trace, cpu.states[hit.index])
                                         : EventTooltip {};
}

} // namespace sightline::views
