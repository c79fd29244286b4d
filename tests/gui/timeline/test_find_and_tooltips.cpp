// Find (against a brute-force ordering of all matches), correlation (API call <-> GPU work)
// and the tooltip fields of each event kind.
#include "model/text/time_text.h"
#include "model/trace/event_access.h"
#include "timeline_fixture.h"
#include "views/timeline/interaction/correlated_events.h"
#include "views/timeline/interaction/event_finder.h"
#include "views/timeline/tooltips/event_tooltip.h"

#include <QRegularExpression>
#include <algorithm>
#include <catch2/catch.hpp>

using namespace sightline;
using namespace sightline::views;

namespace {

std::vector<FindPosition> allMatches(const Trace& trace, const std::function<bool(std::string_view)>& matches)
{
    std::vector<FindPosition> out;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
        const Track& track = trace.tracks[t];
        for (uint32_t i = 0; i < track.size(); ++i)
            if (matches(trace.strings[track.events.name[i]]))
                out.push_back({track.events.start[i], {TrackId(t), i}});
    }
    std::sort(out.begin(), out.end());
    return out;
}

QString q(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

} // namespace

TEST_CASE("Find steps through every match in time order, both ways, and wraps around")
{
    const auto trace = testing::generatedTrace();
    EventFinder finder(*trace);
    REQUIRE(finder.setPattern(QStringLiteral("MEMCPY"), false, false).ok());
    const auto expected = allMatches(*trace, [](std::string_view name) {
        return q(name).contains(QStringLiteral("memcpy"), Qt::CaseInsensitive);
    });
    REQUIRE(expected.size() > 10);

    std::optional<FindPosition> at;
    for (const FindPosition& want : expected) {
        const std::optional<EventRef> got = finder.step(at, FindDirection::Next);
        REQUIRE(got);
        REQUIRE(*got == want.event);
        at = finder.positionOf(*got);
    }
    CHECK(finder.step(at, FindDirection::Next) == expected.front().event); // wraps
    for (size_t k = expected.size() - 1; k > 0; --k)
        REQUIRE(finder.step(finder.positionOf(expected[k].event), FindDirection::Previous)
            == expected[k - 1].event);
    CHECK(finder.step(finder.positionOf(expected.front().event), FindDirection::Previous)
        == expected.back().event);

    const Timestamp middle = expected[expected.size() / 2].start;
    const auto firstAfter = std::find_if(
        expected.begin(), expected.end(), [&](const FindPosition& p) { return p.start >= middle; });
    CHECK(finder.firstFrom(middle) == firstAfter->event);
}

TEST_CASE("Find takes regular expressions, honours case, and explains a bad pattern")
{
    const auto trace = testing::generatedTrace();
    EventFinder finder(*trace);
    REQUIRE(finder.setPattern(QStringLiteral("^cuda(Launch|Memcpy)"), true, true).ok());
    const QRegularExpression expression(QStringLiteral("^cuda(Launch|Memcpy)"));
    const auto expected
        = allMatches(*trace, [&](std::string_view name) { return expression.match(q(name)).hasMatch(); });
    REQUIRE_FALSE(expected.empty());
    CHECK(finder.step(std::nullopt, FindDirection::Next) == expected.front().event);
    CHECK(finder.step(std::nullopt, FindDirection::Previous) == expected.back().event);

    REQUIRE(finder.setPattern(QStringLiteral("CUDALAUNCH"), false, true).ok());
    CHECK(finder.matchingNames() == 0);
    CHECK_FALSE(finder.step(std::nullopt, FindDirection::Next));

    const Status refused = finder.setPattern(QStringLiteral("(unclosed"), true, false);
    CHECK(refused.error().find("regular expression") != std::string::npos);
    CHECK_FALSE(finder.hasPattern());
}

TEST_CASE("A kernel and its launching API call are correlated both ways")
{
    const auto trace = testing::generatedTrace();
    const auto kernel = testing::findEvent(*trace, TrackKind::Kernels);
    REQUIRE(kernel);
    const auto call = launchingCall(*trace, *kernel);
    REQUIRE(call);
    const Track& api = trace->track(call->track);
    CHECK(api.key.kind == TrackKind::CudaApi);
    CHECK(api.key.pid == trace->track(kernel->track).key.pid);
    CHECK(
        api.events.correlation[call->index] == trace->track(kernel->track).events.correlation[kernel->index]);
    const auto fromKernel = correlatedEvents(*trace, *kernel);
    CHECK(std::find(fromKernel.begin(), fromKernel.end(), *call) != fromKernel.end());
    const auto fromCall = correlatedEvents(*trace, *call);
    CHECK(std::find(fromCall.begin(), fromCall.end(), *kernel) != fromCall.end());
    CHECK(std::find(fromCall.begin(), fromCall.end(), *call) == fromCall.end());
    const auto nvtx = testing::findEvent(*trace, TrackKind::Nvtx);
    REQUIRE(nvtx);
    CHECK(correlatedEvents(*trace, *nvtx).empty());
}

TEST_CASE("A kernel's tooltip has its launch configuration, placement and latency")
{
    const auto trace = testing::generatedTrace();
    const auto ref = testing::findEvent(*trace, TrackKind::Kernels);
    REQUIRE(ref);
    const KernelEvent kernel = kernelAt(*trace, *ref);
    const EventTooltip tip = describeEvent(*trace, *ref);
    CHECK(tip.title == q(trace->strings[kernel.name]));
    CHECK(tip.value(QStringLiteral("grid"))
        == QStringLiteral("<<<%1, %2, %3>>>")
               .arg(kernel.launch.grid[0])
               .arg(kernel.launch.grid[1])
               .arg(kernel.launch.grid[2]));
    CHECK(tip.value(QStringLiteral("block"))
        == QStringLiteral("<<<%1, %2, %3>>>")
               .arg(kernel.launch.block[0])
               .arg(kernel.launch.block[1])
               .arg(kernel.launch.block[2]));
    CHECK(tip.value(QStringLiteral("Registers Per Thread"))
        == QString::number(kernel.launch.registersPerThread));
    CHECK(tip.value(QStringLiteral("Static Shared Memory"))
              .contains(QString::number(kernel.launch.staticSharedMemory)));
    CHECK(tip.value(QStringLiteral("Dynamic Shared Memory"))
              .contains(QString::number(kernel.launch.dynamicSharedMemory)));
    CHECK(tip.value(QStringLiteral("Correlation ID")) == QString::number(kernel.correlation.value));
    CHECK(tip.value(QStringLiteral("Duration")) == q(formatDuration(kernel.end - kernel.start)));
    CHECK(tip.value(QStringLiteral("Stream"))
              .startsWith(QStringLiteral("Stream %1").arg(trace->track(ref->track).key.stream.value)));
    CHECK(tip.value(QStringLiteral("Device"))
              .startsWith(QString::number(trace->track(ref->track).key.device.value)));
    const ApiCall call = apiCallAt(*trace, *launchingCall(*trace, *ref));
    CHECK(tip.value(QStringLiteral("Latency"))
        == QStringLiteral("\u2190") + q(formatDuration(kernel.start - call.start)));
    CHECK(tip.plainText().contains(QStringLiteral("grid: <<<")));
    CHECK(tip.html().contains(QStringLiteral("&lt;&lt;&lt;")));
}

TEST_CASE("Memory, API, NVTX and OS runtime tooltips carry their own fields")
{
    const auto trace = testing::generatedTrace();
    const auto copy = testing::findEvent(*trace, TrackKind::Memory, [&](const Track& t, EventRef e) {
        return trace->memoryOps[t.events.detail[e.index]].kind == MemoryOpKind::Memcpy
            && t.duration(e.index) > 0;
    });
    REQUIRE(copy);
    const MemoryEvent m = memoryAt(*trace, *copy);
    const EventTooltip copyTip = describeEvent(*trace, *copy);
    CHECK(copyTip.title.startsWith(QStringLiteral("Memcpy ") + q(shortLabel(m.op.copyKind))));
    CHECK(copyTip.value(QStringLiteral("Size")).contains(QStringLiteral("%L1 B").arg(m.bytes)));
    CHECK(copyTip.value(QStringLiteral("Throughput")) == q(formatThroughput(m.bytes, m.end - m.start)));
    CHECK(copyTip.value(QStringLiteral("Source memory kind")) == q(label(m.op.srcKind)));
    CHECK(copyTip.value(QStringLiteral("Destination memory kind")) == q(label(m.op.dstKind)));

    const auto api = testing::findEvent(*trace, TrackKind::CudaApi);
    REQUIRE(api);
    const ApiCall a = apiCallAt(*trace, *api);
    const EventTooltip apiTip = describeEvent(*trace, *api);
    CHECK(apiTip.title == q(trace->strings[a.name]));
    CHECK(apiTip.value(QStringLiteral("Return code")) == QString::number(a.result.returnCode));
    CHECK(apiTip.value(QStringLiteral("Correlation ID")) == QString::number(a.correlation.value));

    const auto nvtx = testing::findEvent(
        *trace, TrackKind::Nvtx, [](const Track& t, EventRef e) { return t.laneOf(e.index) > 0; });
    REQUIRE(nvtx);
    const EventTooltip nvtxTip = describeEvent(*trace, *nvtx);
    CHECK(nvtxTip.value(QStringLiteral("Depth"))
        == QString::number(trace->track(nvtx->track).laneOf(nvtx->index)));
    CHECK_FALSE(nvtxTip.value(QStringLiteral("Domain")).isNull());
    CHECK_FALSE(nvtxTip.value(QStringLiteral("Category")).isNull());

    const auto os = testing::findEvent(*trace, TrackKind::OsRuntime);
    REQUIRE(os);
    const EventTooltip osTip = describeEvent(*trace, *os);
    CHECK(osTip.value(QStringLiteral("Return value")) == QString::number(osCallAt(*trace, *os).returnValue));
}
