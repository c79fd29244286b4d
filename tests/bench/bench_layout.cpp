// Lane layout of one track (model/index/lane_layout.cpp): the time TraceBuilder::build() takes to
// lay out N ranges that all overlap one another (the worst case, which was quadratic), N
// ranges that overlap in a staircase, and N ranges nested a few deep, as most tracks are.
//
//   bench_layout [--events N[,N...]]   (default 20k,400k)
#include "bench_support.h"
#include "model/construct/trace_builder.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

using namespace sightline;

namespace {

// Seconds to build a trace of one NVTX track holding `count` ranges made by `range(i)`.
double layoutSeconds(size_t count, const std::function<std::pair<Timestamp, Timestamp>(size_t)>& range)
{
    TraceBuilder builder;
    const TrackId track = builder.hostTrack(TrackKind::Nvtx, Pid(1), Tid(1));
    const StringId name = builder.intern("range");
    NvtxAttributes attributes;
    attributes.style = NvtxStyle::StartEnd;
    for (size_t i = 0; i < count; ++i) {
        const auto [start, end] = range(i);
        builder.add(track, NvtxEvent {start, end, name, attributes});
    }
    const bench::Stopwatch watch;
    const Trace trace = builder.build();
    const double seconds = watch.seconds();
    if (trace.eventCount() != count) std::fprintf(stderr, "bench_layout: events were lost\n");
    return seconds;
}

// "20k,400k" -> {20000, 400000}; an unreadable item ends the list.
std::vector<size_t> parseCounts(const std::string& text)
{
    std::vector<size_t> counts;
    size_t begin = 0;
    while (begin < text.size()) {
        const size_t comma = std::min(text.find(',', begin), text.size());
        const std::string item = text.substr(begin, comma - begin);
        char* end = nullptr;
        double value = std::strtod(item.c_str(), &end);
        if (*end == 'k') value *= 1e3;
        if (*end == 'M') value *= 1e6;
        if (end == item.c_str() || value < 1) break;
        counts.push_back(size_t(value));
        begin = comma + 1;
    }
    return counts;
}

} // namespace

int main(int argc, char** argv)
{
    std::vector<size_t> counts {20'000, 400'000};
    for (int i = 1; i < argc; ++i) {
        if (std::strcmp(argv[i], "--events") == 0 && i + 1 < argc) {
            counts = parseCounts(argv[++i]);
        } else {
            std::fprintf(stderr, "Usage: bench_layout [--events N[,N...]]   (default 20k,400k)\n");
            return std::strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    std::printf(
        "%-10s %22s %22s %22s\n", "ranges", "all overlapping (s)", "staircase (s)", "nested 4 deep (s)");
    for (const size_t n : counts) {
        const Timestamp span = Timestamp(n) * 10;
        const double all = layoutSeconds(n, [&](size_t i) {
            return std::pair {Timestamp(i), span + Timestamp(i)};
        });
        const double stairs = layoutSeconds(n, [](size_t i) {
            return std::pair {Timestamp(i) * 10, Timestamp(i) * 10 + 35};
        });
        const double nested = layoutSeconds(n, [](size_t i) {
            const Timestamp group = Timestamp(i / 4) * 100, depth = Timestamp(i % 4);
            return std::pair {group + depth, group + 90 - depth};
        });
        std::printf("%-10s %22.3f %22.3f %22.3f\n", bench::shortCount(n).c_str(), all, stairs, nested);
    }
    return 0;
}
