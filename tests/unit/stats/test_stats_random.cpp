// The stats engine on random traces, checked against a plain reference computation written
// here from the definitions (std::map of vectors, full sort for the median), with and
// without a range, and the parallel entry point against the one-report one.
#include "model/stats/stats_engine.h"
#include "stats_fixtures.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <optional>
#include <random>

using namespace sightline;
using namespace sightline::test;

namespace {

// One event as the reference sees it: which report it belongs to, its group and its values.
struct Recorded
{
    StatsReportId report;
    std::string name;
    NvtxStyle style = NvtxStyle::PushPop;
    Timestamp start = 0, end = 0;
    int64_t bytes = 0;
};

struct RandomTrace
{
    Trace trace;
    std::vector<Recorded> events;
};

const char* const kApiNames[]
    = {"cudaLaunchKernel", "cudaMemcpyAsync", "cudaStreamSynchronize", "cudaMalloc", "cuLaunchKernel"};
const char* const kKernelNames[]
    = {"gemm<float, 128>", "relu", "softmax_fwd", "reduce", "void copy<int>(int*)"};
const char* const kOsNames[] = {"read", "write", "poll", "pthread_mutex_lock", "ioctl"};
const char* const kRangeNames[] = {"forward", "backward", "step", "load"};

RandomTrace makeRandomTrace(uint32_t seed)
{
    std::mt19937_64 rng(seed);
    auto uniform
        = [&](int64_t lo, int64_t hi) { return std::uniform_int_distribution<int64_t>(lo, hi)(rng); };
    TraceBuilder b;
    RandomTrace out;
    const DomainId ioDomain = b.addDomain("io");

    for (uint32_t t = 1; t <= 3; ++t) {
        const Tid tid(t);
        Timestamp cursor = uniform(0, 50);
        for (int i = 0; i < 400; ++i) {
            const std::string name = kApiNames[uniform(0, 4)];
            const Timestamp start = cursor, end = cursor + uniform(0, 300);
            addApiCall(b, tid, name, start, end);
            out.events.push_back({StatsReportId::CudaApiSum, name, {}, start, end, 0});
            if (end - start > 10 && uniform(0, 3) == 0) { // a nested driver call
                addApiCall(b, tid, "cuMemcpyHtoD", start + 2, end - 2);
                out.events.push_back({StatsReportId::CudaApiSum, "cuMemcpyHtoD", {}, start + 2, end - 2, 0});
            }
            cursor = end + uniform(0, 40);
        }
        cursor = uniform(0, 50);
        for (int i = 0; i < 300; ++i) {
            const std::string name = kOsNames[uniform(0, 4)];
            const Timestamp start = cursor, end = cursor + uniform(1, 5000);
            addOsCall(b, tid, name, start, end);
            out.events.push_back({StatsReportId::OsrtSum, name, {}, start, end, 0});
            cursor = end + uniform(0, 100);
        }
        // Push/pop ranges nested two deep, start/end ranges overlapping freely, and marks.
        cursor = 0;
        for (int i = 0; i < 100; ++i) {
            const DomainId domain = uniform(0, 4) == 0 ? ioDomain : DomainId {};
            const std::string prefix = domain == ioDomain ? "io:" : "";
            const std::string outer = kRangeNames[uniform(0, 3)], inner = kRangeNames[uniform(0, 3)];
            const Timestamp start = cursor, end = cursor + uniform(20, 2000);
            addNvtx(b, tid, domain, NvtxStyle::PushPop, outer, start, end);
            out.events.push_back({StatsReportId::NvtxSum, prefix + outer, NvtxStyle::PushPop, start, end, 0});
            addNvtx(b, tid, domain, NvtxStyle::PushPop, inner, start + 5, end - 5);
            out.events.push_back(
                {StatsReportId::NvtxSum, prefix + inner, NvtxStyle::PushPop, start + 5, end - 5, 0});
            const Timestamp s2 = uniform(0, 200'000), e2 = s2 + uniform(0, 3000);
            addNvtx(b, tid, domain, NvtxStyle::StartEnd, outer, s2, e2);
            out.events.push_back({StatsReportId::NvtxSum, prefix + outer, NvtxStyle::StartEnd, s2, e2, 0});
            addNvtx(b, tid, domain, NvtxStyle::Mark, "mark", start + 1, start + 1);
            cursor = end + uniform(0, 30);
        }
    }

    const CopyKind copyKinds[] = {CopyKind::HtoD, CopyKind::DtoH, CopyKind::DtoD};
    const char* const copyNames[]
        = {"[CUDA memcpy Host-to-Device]", "[CUDA memcpy Device-to-Host]", "[CUDA memcpy Device-to-Device]"};
    const MemoryKind hostKinds[] = {MemoryKind::Pageable, MemoryKind::Pinned};
    for (uint32_t s = 1; s <= 4; ++s) {
        const StreamId stream(s);
        Timestamp cursor = uniform(0, 100);
        for (int i = 0; i < 500; ++i) {
            const Timestamp start = cursor, end = cursor + uniform(1, 20'000);
            if (uniform(0, 2) > 0) {
                const std::string name = kKernelNames[uniform(0, 4)];
                addKernel(b, stream, name, start, end);
                out.events.push_back({StatsReportId::CudaGpuKernSum, name, {}, start, end, 0});
            } else {
                const bool isMemset = uniform(0, 4) == 0;
                const int64_t copy = uniform(0, 2);
                const MemoryOp op = isMemset
                    ? memsetOp(uint32_t(uniform(0, 255)))
                    : copyOp(copyKinds[copy], hostKinds[uniform(0, 1)], MemoryKind::Device);
                const std::string name = isMemset ? "[CUDA memset]" : copyNames[copy];
                const int64_t bytes = uniform(1, 64'000'000);
                addMemoryOp(b, stream, op, uint64_t(bytes), start, end);
                out.events.push_back({StatsReportId::CudaGpuMemTimeSum, name, {}, start, end, bytes});
            }
            cursor = end + uniform(0, 500);
        }
    }
    out.trace = b.build(1);
    return out;
}

// The reference: every event of the report starting in the range, grouped in a std::map.
std::map<std::pair<std::string, NvtxStyle>, std::vector<int64_t>> referenceGroups(
    const std::vector<Recorded>& events, StatsReportId id, std::optional<TimeRange> range)
{
    const bool sizes = id == StatsReportId::CudaGpuMemSizeSum;
    const StatsReportId source = sizes ? StatsReportId::CudaGpuMemTimeSum : id;
    std::map<std::pair<std::string, NvtxStyle>, std::vector<int64_t>> groups;
    for (const Recorded& e : events) {
        if (e.report != source) continue;
        if (range && (e.start < range->start || e.start >= range->end)) continue;
        groups[{e.name, e.style}].push_back(sizes ? e.bytes : e.end - e.start);
    }
    return groups;
}

void checkAgainstReference(const RandomTrace& random, StatsReportId id, std::optional<TimeRange> range)
{
    INFO("report " << statsReportInfo(id).name);
    const StatsReport report = computeReport(random.trace, id, range);
    const auto groups = referenceGroups(random.events, id, range);
    REQUIRE(report.rows.size() == groups.size());

    int64_t grandTotal = 0;
    for (const auto& [key, list] : groups)
        for (int64_t v : list)
            grandTotal += v;

    double percentSum = 0;
    for (size_t r = 0; r < report.rows.size(); ++r) {
        const StatsRow& row = report.rows[r];
        INFO("row " << row.name);
        const auto it
            = groups.find({row.name, id == StatsReportId::NvtxSum ? row.style : NvtxStyle::PushPop});
        REQUIRE(it != groups.end());
        std::vector<int64_t> values = it->second;
        std::sort(values.begin(), values.end());
        const size_t n = values.size();
        int64_t total = 0;
        for (int64_t v : values)
            total += v;
        const double mean = double(total) / double(n);
        double squares = 0;
        for (int64_t v : values)
            squares += (double(v) - mean) * (double(v) - mean);
        const double median
            = n % 2 ? double(values[n / 2]) : (double(values[n / 2 - 1]) + double(values[n / 2])) / 2;

        CHECK(row.values.count == int64_t(n));
        CHECK(row.values.total == total);
        CHECK(row.values.minimum == values.front());
        CHECK(row.values.maximum == values.back());
        CHECK(row.values.average == Approx(mean));
        CHECK(row.values.median == Approx(median));
        CHECK(row.values.stdDev == Approx(n > 1 ? std::sqrt(squares / double(n - 1)) : 0.0).margin(1e-9));
        CHECK(row.percent == Approx(100.0 * double(total) / double(grandTotal)));
        percentSum += row.percent;
        if (r > 0) {
            const StatsRow& previous = report.rows[r - 1];
            CHECK((previous.values.total > row.values.total
                || (previous.values.total == row.values.total && previous.name <= row.name)));
        }
    }
    if (!report.rows.empty()) CHECK(percentSum == Approx(100.0));
}

} // namespace

TEST_CASE("random traces: every report matches the reference computation")
{
    for (uint32_t seed : {1u, 2u, 3u}) {
        INFO("seed " << seed);
        const RandomTrace random = makeRandomTrace(seed);
        std::mt19937 rng(seed);
        const Timestamp last = random.trace.span.end;
        const Timestamp a = std::uniform_int_distribution<Timestamp>(0, last)(rng);
        const Timestamp c = std::uniform_int_distribution<Timestamp>(0, last)(rng);
        const std::optional<TimeRange> ranges[]
            = {std::nullopt, TimeRange {std::min(a, c), std::max(a, c) + 1}, TimeRange {0, last / 10}};
        for (const std::optional<TimeRange>& range : ranges) {
            INFO("range " << (range ? std::to_string(range->start) + ":" + std::to_string(range->end)
                                    : "all"));
            for (const StatsReportInfo& info : statsReportCatalog())
                checkAgainstReference(random, info.id, range);
        }
    }
}

TEST_CASE("reports computed in parallel equal the ones computed one by one")
{
    const RandomTrace random = makeRandomTrace(7);
    const TimeRange range {
        random.trace.span.start, random.trace.span.start + random.trace.span.duration() / 2};
    for (unsigned threads : {1u, 2u, 4u}) {
        INFO("threads " << threads);
        const std::vector<StatsReport> all = computeAllReports(random.trace, range, threads);
        REQUIRE(all.size() == statsReportCatalog().size());
        for (size_t k = 0; k < all.size(); ++k) {
            const StatsReport single = computeReport(random.trace, statsReportCatalog()[k].id, range);
            CHECK(all[k].id == single.id);
            REQUIRE(all[k].rows.size() == single.rows.size());
            for (size_t r = 0; r < single.rows.size(); ++r) {
                CHECK(all[k].rows[r].name == single.rows[r].name);
                CHECK(all[k].rows[r].style == single.rows[r].style);
                CHECK(all[k].rows[r].values == single.rows[r].values);
            }
        }
    }

    const StatsReportId some[] = {StatsReportId::CudaGpuMemSizeSum, StatsReportId::CudaApiSum};
    const std::vector<StatsReport> picked = computeReports(random.trace, some, std::nullopt, 2);
    REQUIRE(picked.size() == 2);
    CHECK(picked[0].id == StatsReportId::CudaGpuMemSizeSum);
    CHECK(picked[1].id == StatsReportId::CudaApiSum);
}
