// The Chrome trace importer on the real PyTorch profiler traces of ../shared/data/traces. The
// expected figures come from the tests' own strict JSON parser (tests/unit/export/mini_json.h),
// which shares no code with the streaming importer.
#include "../../test_paths.h"
#include "../export/mini_json.h"
#include "import_support.h"
#include "model/import/importers.h"
#include "nesting.h"

#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <set>

using namespace sightline;
using namespace sightline::test;

namespace {

// An event as the oracle reads it: only those the importer should keep.
struct Expected
{
    std::string category;
    std::string name;
    int64_t pid = 0, tid = 0;
    int64_t start = 0, end = 0; // nanoseconds, not yet rebased
    bool exact = true; // the decimals were read exactly
    int64_t correlation = 0;
};

int64_t nanoseconds(const std::string& text, bool& exact)
{
    if (const std::optional<int64_t> ns = microsTextToNanoseconds(text)) return *ns;
    exact = false;
    return std::llround(std::stod(text) * 1000.0);
}

const std::set<std::string> kHostRangeCategories
    = {"cpu_op", "user_annotation", "python_function", "Operator"};

std::vector<Expected> expectedEvents(const JsonValue& events)
{
    std::vector<Expected> out;
    for (const JsonValue& e : events.items) {
        const JsonValue* pid = e.find("pid");
        const JsonValue* tid = e.find("tid");
        const JsonValue* ts = e.find("ts");
        if (!pid || !tid || !ts || pid->type != JsonValue::Type::Number
            || tid->type != JsonValue::Type::Number)
            continue;
        const std::string phase = e.str("ph"), category = e.str("cat");
        const bool range = phase == "X"
            && (category == "kernel" || category == "gpu_memcpy" || category == "gpu_memset"
                || category == "cuda_runtime" || category == "cuda_driver" || category == "cuda_sync"
                || category == "gpu_user_annotation" || kHostRangeCategories.count(category));
        const bool instant = phase == "i" && category == "cpu_instant_event";
        if (!range && !instant) continue;
        Expected x;
        x.category = category;
        x.name = e.str("name");
        x.pid = std::stoll(pid->text);
        x.tid = std::stoll(tid->text);
        x.start = nanoseconds(ts->text, x.exact);
        x.end = x.start + (instant ? 0 : nanoseconds(e.str("dur"), x.exact));
        if (const JsonValue* args = e.find("args"); args && args->find("correlation"))
            x.correlation = std::stoll(args->str("correlation"));
        out.push_back(std::move(x));
    }
    return out;
}

bool isGpuCategory(const std::string& c)
{
    return c == "kernel" || c == "gpu_memcpy" || c == "gpu_memset" || c == "cuda_sync"
        || c == "gpu_user_annotation";
}

} // namespace

TEST_CASE("Real PyTorch profiler traces import with the figures their JSON holds")
{
    for (const auto& path : sharedTraceFiles({".json.gz", ".json"})) {
        DYNAMIC_SECTION(path.filename().string())
        {
            std::string error;
            const std::optional<JsonValue> document = parseJson(readWholeFile(path), error);
            INFO(error);
            REQUIRE(document);
            const JsonValue* events
                = document->type == JsonValue::Type::Array ? &*document : document->find("traceEvents");
            REQUIRE(events);
            const std::vector<Expected> expected = expectedEvents(*events);
            REQUIRE(!expected.empty());

            const Result<Trace> imported = importChromeTrace(path.string());
            INFO(imported.error());
            REQUIRE(imported);
            const Trace& trace = imported.value();

            int64_t base = INT64_MAX;
            for (const Expected& x : expected)
                base = std::min(base, x.start);
            if (document->type == JsonValue::Type::Object) {
                if (const JsonValue* origin = document->find("baseTimeNanoseconds"))
                    CHECK(trace.metadata.startTimeUtcNs == std::stoll(origin->text) + base);
                else if (base > 1'000'000'000'000'000'000)
                    CHECK(trace.metadata.startTimeUtcNs == base);
            }

            // Counts per kind, and per host-range category (one NVTX domain each).
            std::map<std::string, size_t> byCategory;
            for (const Expected& x : expected)
                ++byCategory[x.category];
            auto count = [&](std::initializer_list<const char*> categories) {
                size_t n = 0;
                for (const char* c : categories)
                    n += byCategory[c];
                return n;
            };
            CHECK(trace.eventCount(TrackKind::Kernels) == count({"kernel"}));
            CHECK(trace.eventCount(TrackKind::Memory) == count({"gpu_memcpy", "gpu_memset"}));
            CHECK(trace.eventCount(TrackKind::CudaApi) == count({"cuda_runtime", "cuda_driver"}));
            CHECK(trace.eventCount(TrackKind::Synchronization) == count({"cuda_sync"}));
            std::map<std::string, size_t> nvtxByDomain;
            for (const Track& t : trace.tracks)
                if (t.key.kind == TrackKind::Nvtx)
                    for (uint32_t detail : t.events.detail)
                        ++nvtxByDomain[std::string(trace.domainName(trace.nvtxAttributes[detail].domain))];
            for (const char* c :
                {"cpu_op", "user_annotation", "python_function", "cpu_instant_event", "gpu_user_annotation"})
                CHECK(nvtxByDomain[c] == byCategory[c]);
            CHECK(trace.eventCount(TrackKind::Kernels) > 0);

            // Kernels: the same names and times, to the nanosecond when the file has them.
            std::multiset<std::string> expectedKernels, actualKernels;
            int64_t expectedTotal = 0, actualTotal = 0;
            size_t kernels = 0;
            bool exact = true;
            for (const Expected& x : expected) {
                if (x.category != "kernel") continue;
                expectedKernels.insert(
                    std::to_string(x.start - base) + " " + std::to_string(x.end - base) + " " + x.name);
                expectedTotal += x.end - x.start;
                exact = exact && x.exact;
                ++kernels;
            }
            for (const Track& t : trace.tracks) {
                if (t.key.kind != TrackKind::Kernels) continue;
                for (uint32_t i = 0; i < t.size(); ++i) {
                    actualKernels.insert(std::to_string(t.events.start[i]) + " "
                        + std::to_string(t.events.end[i]) + " "
                        + std::string(trace.strings[t.events.name[i]]));
                    actualTotal += t.duration(i);
                }
            }
            CHECK(std::abs(actualTotal - expectedTotal) <= int64_t(exact ? 0 : kernels));
            if (exact) CHECK(actualKernels == expectedKernels);

            // Correlation: a kernel whose id a CUDA call carries finds that call.
            std::map<int64_t, std::string> calls;
            for (const Expected& x : expected)
                if ((x.category == "cuda_runtime" || x.category == "cuda_driver") && x.correlation)
                    calls.emplace(x.correlation, x.name); // the runtime call comes first when both carry it
            size_t linked = 0, linkable = 0;
            for (const Expected& x : expected)
                if (x.category == "kernel" && calls.count(x.correlation)) ++linkable;
            for (uint32_t t = 0; t < trace.tracks.size(); ++t) {
                const Track& track = trace.tracks[t];
                if (track.key.kind != TrackKind::Kernels) continue;
                for (uint32_t i = 0; i < track.size(); ++i) {
                    const auto call = trace.correlation.launchingCall(trace, {TrackId(t), i});
                    if (!call) continue;
                    ++linked;
                    const auto name = calls.find(track.events.correlation[i].value);
                    REQUIRE(name != calls.end());
                    CHECK(trace.strings[trace.track(call->track).events.name[call->index]] == name->second);
                }
            }
            CHECK(linked == linkable);

            // NVTX nesting of CPU operators, thread by thread, from containment.
            std::map<std::pair<int64_t, int64_t>, std::vector<Range>> ops;
            for (const Expected& x : expected)
                if (x.category == "cpu_op") ops[{x.pid, x.tid}].push_back({x.start - base, x.end - base});
            for (const Track& track : trace.tracks) {
                if (track.key.kind != TrackKind::Nvtx || trace.domainName(track.key.domain) != "cpu_op")
                    continue;
                const auto found
                    = ops.find({int64_t(track.key.pid.value), int64_t(int32_t(track.key.tid.value))});
                REQUIRE(found != ops.end());
                const Nesting nesting = nestingOf(found->second);
                CHECK(track.nested == nesting.proper);
                if (!nesting.proper) continue;
                std::vector<std::string> lines;
                for (uint32_t i = 0; i < track.size(); ++i)
                    lines.push_back(std::to_string(track.events.start[i]) + " "
                        + std::to_string(track.events.end[i]) + " " + std::to_string(track.laneOf(i)));
                std::sort(lines.begin(), lines.end());
                CHECK(lines == nesting.lines);
            }

            // GPU rows belong to the host process (Kineto draws them as "pid = device").
            std::set<int64_t> hostPids;
            for (const Expected& x : expected)
                if (!isGpuCategory(x.category)) hostPids.insert(x.pid);
            for (const Track& t : trace.tracks)
                if (isGpuKind(t.key.kind)) CHECK(hostPids.count(t.key.pid.value) == 1);
        }
    }
}

TEST_CASE("Real PyTorch traces cut in half keep the events before the cut")
{
    const auto dir = scratchDir("kineto-real-cut");
    for (const auto& path : sharedTraceFiles({".json.gz"})) {
        INFO(path.string());
        const std::string bytes = readWholeFileRaw(path);
        writeFile(dir / "cut.json.gz", bytes.substr(0, bytes.size() / 2));
        const Result<Trace> cut = importChromeTrace((dir / "cut.json.gz").string());
        REQUIRE(cut);
        CHECK(cut->eventCount() > 0);
        REQUIRE_FALSE(cut->diagnostics.empty());
        CHECK_THAT(cut->diagnostics.back().text,
            Catch::Contains("gzip data ends in the middle")
                && Catch::Contains("events before the cut were imported"));
    }
}
