// The diagnosis rules and the verdict on generated scenarios (tests/tools/generator/scenario.h):
// the clean scenario raises no finding, each plant makes its rule fire with exactly the planted
// events as evidence, each problem scenario gets its limit as the verdict; and the options
// (rule subset, range) and cancellation do what analysis.h says.
#include "model/analysis/analysis.h"
#include "scenario.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <set>
#include <string>
#include <tuple>
#include <vector>

using namespace sightline;
using gen::Plant;
using gen::Scenario;

namespace {

// An event by its track's kind and span, or a time range (kind -1): the scenarios have one
// thread and one stream, so this names one event.
using Place = std::tuple<int, Timestamp, Timestamp>;

std::set<Place> evidencePlaces(const Trace& trace, const Finding& finding)
{
    std::set<Place> places;
    for (const Evidence& e : finding.evidence) {
        if (!e.event) {
            places.insert({-1, e.range.start, e.range.end});
            continue;
        }
        const Track& track = trace.track(e.event->track);
        const Timestamp start = track.events.start[e.event->index], end = track.events.end[e.event->index];
        CHECK(e.range == TimeRange {start, end}); // the evidence's span is its event's
        places.insert({int(track.key.kind), start, end});
    }
    return places;
}

std::vector<gen::PlantedEvent> plantedOf(const gen::ScenarioTrace& scenario, Plant plant)
{
    std::vector<gen::PlantedEvent> out;
    for (const gen::PlantedEvent& p : scenario.planted)
        if (p.plant == plant) out.push_back(p);
    return out;
}

Place placeOf(const gen::PlantedEvent& p)
{
    return {p.kind ? int(*p.kind) : -1, p.range.start, p.range.end};
}

std::set<Place> placesOf(const std::vector<gen::PlantedEvent>& planted)
{
    std::set<Place> places;
    for (const gen::PlantedEvent& p : planted)
        places.insert(placeOf(p));
    return places;
}

const Finding* findingOf(const AnalysisResult& result, std::string_view rule)
{
    for (const Finding& f : result.findings)
        if (f.rule == rule) return &f;
    return nullptr;
}

std::set<std::string> rulesFired(const AnalysisResult& result)
{
    std::set<std::string> rules;
    for (const Finding& f : result.findings)
        rules.insert(f.rule);
    return rules;
}

std::string describe(const AnalysisResult& result)
{
    std::string text;
    for (const Finding& f : result.findings)
        text += f.rule + ": " + f.summary + "\n";
    for (const Verdict& v : result.verdicts)
        text += "verdict " + v.scope + ": " + std::string(limitName(v.limit)) + " (" + v.reason + ")\n";
    return text;
}

gen::ScenarioTrace cleanWith(std::initializer_list<Plant> plants)
{
    const std::vector<Plant> list(plants);
    return gen::generateScenario(Scenario::Clean, list);
}

} // namespace

TEST_CASE("scenarios are deterministic and list what was planted", "[analysis][scenario]")
{
    const std::vector<Plant> all {Plant::PageableAsync, Plant::SyncMemcpy, Plant::SyncMemset, Plant::SyncApi,
        Plant::ShortKernels, Plant::LowOccupancy, Plant::GpuGap, Plant::LowUtil};
    const gen::ScenarioTrace a = gen::generateScenario(Scenario::Clean, all);
    const gen::ScenarioTrace b = gen::generateScenario(Scenario::Clean, all);
    CHECK(a.trace.eventCount() == b.trace.eventCount());
    CHECK(a.trace.span == b.trace.span);
    REQUIRE(a.planted.size() == b.planted.size());
    for (size_t i = 0; i < a.planted.size(); ++i)
        CHECK(placeOf(a.planted[i]) == placeOf(b.planted[i]));
    // Three of each plant, one 600 ms gap, four short kernels at each of three places.
    for (Plant plant :
        {Plant::PageableAsync, Plant::SyncMemcpy, Plant::SyncMemset, Plant::SyncApi, Plant::LowOccupancy})
        CHECK(plantedOf(a, plant).size() == 3);
    CHECK(plantedOf(a, Plant::ShortKernels).size() == 12);
    REQUIRE(plantedOf(a, Plant::GpuGap).size() == 1);
    CHECK(plantedOf(a, Plant::GpuGap).front().range.duration() == 600'000'000);
    CHECK(plantedOf(a, Plant::LowUtil).size() == 1);

    const gen::ScenarioTrace clean = cleanWith({});
    CHECK(clean.planted.empty());
    CHECK(clean.trace.eventCount() > 1000);
    CHECK(clean.trace.eventCount() < 10000);
    REQUIRE(clean.trace.gpus.size() == 1);
    CHECK(clean.trace.gpus.front().computeMajor == 9);
    CHECK(clean.trace.gpus.front().computeMinor == 0);
}

TEST_CASE("the clean scenario raises no finding and is GPU compute bound", "[analysis][scenario]")
{
    const gen::ScenarioTrace clean = cleanWith({});
    const AnalysisResult result = analyze(clean.trace, {});
    INFO(describe(result));
    CHECK(result.findings.empty());
    REQUIRE(!result.verdicts.empty());
    CHECK(result.verdicts[0].scope == "whole report");
    CHECK(result.verdicts[0].limit == Limit::GpuCompute);
    REQUIRE(result.gpus.size() == 1);
    CHECK(result.gpus[0].idle == 0);
    CHECK(result.gpus[0].compute > result.gpus[0].span * 9 / 10);
    REQUIRE(result.occupancy.size() == 1);
    CHECK(result.occupancy[0].theoretical == 1.0);
    CHECK(!result.cancelled);
}

TEST_CASE("each plant's rule reports exactly the planted events", "[analysis][scenario]")
{
    // Whether the GPU idles next to the plant: a blocking call drains the queue, so the GPU waits
    // a moment after it (too little to require the idle breakdown, which may report it), and a
    // gap idles it for long. Short kernels queued behind long ones idle nothing.
    enum class Idle { Never, Maybe, Long };
    struct Case
    {
        Plant plant;
        std::vector<std::string> rules; // each of them has exactly the planted events as evidence
        Idle idle;
    };
    const Case cases[] = {
        {Plant::PageableAsync, {"cuda_memcpy_async", "pageable_copies"}, Idle::Maybe},
        {Plant::SyncMemcpy, {"cuda_memcpy_sync", "pageable_copies"}, Idle::Maybe}, // into pageable memory
        {Plant::SyncMemset, {"cuda_memset_sync"}, Idle::Maybe},
        {Plant::SyncApi, {"cuda_api_sync"}, Idle::Maybe},
        {Plant::ShortKernels, {"launch_bound_kernels"}, Idle::Never},
        {Plant::GpuGap, {"gpu_gaps"}, Idle::Long},
    };
    for (const Case& c : cases) {
        const gen::ScenarioTrace scenario = cleanWith({c.plant});
        const AnalysisResult result = analyze(scenario.trace, {});
        INFO(gen::plantName(c.plant) << "\n" << describe(result));
        const std::vector<gen::PlantedEvent> planted = plantedOf(scenario, c.plant);
        for (const std::string& rule : c.rules) {
            INFO(rule);
            const Finding* finding = findingOf(result, rule);
            REQUIRE(finding);
            CHECK(finding->evidenceCount == planted.size());
            CHECK(evidencePlaces(scenario.trace, *finding) == placesOf(planted));
        }
        // No other rule fires, but for the idle time the plant causes.
        std::set<std::string> fired = rulesFired(result);
        std::set<std::string> expected(c.rules.begin(), c.rules.end());
        if (c.idle == Idle::Long) expected.insert({"gpu_time_util", "gpu_idle_breakdown"});
        if (c.idle == Idle::Maybe) fired.erase("gpu_idle_breakdown");
        CHECK(fired == expected);
    }
}

TEST_CASE("the low-occupancy plant is reported by its longest launch", "[analysis][scenario]")
{
    const gen::ScenarioTrace scenario = cleanWith({Plant::LowOccupancy});
    const AnalysisResult result = analyze(scenario.trace, {});
    INFO(describe(result));
    CHECK(rulesFired(result) == std::set<std::string> {"low_occupancy"});
    const Finding* finding = findingOf(result, "low_occupancy");
    REQUIRE(finding);
    const std::vector<gen::PlantedEvent> planted = plantedOf(scenario, Plant::LowOccupancy);
    REQUIRE(planted.size() == 3);
    // One kernel name is flagged; its evidence is its longest launch (the second, 300 us).
    CHECK(finding->evidenceCount == 1);
    CHECK(evidencePlaces(scenario.trace, *finding) == std::set<Place> {placeOf(planted[1])});
    CHECK(planted[1].range.duration() == 300'000);
    const auto occupancy
        = std::find_if(result.occupancy.begin(), result.occupancy.end(), [&](const KernelOccupancy& k) {
              return scenario.trace.strings[k.name] == gen::kPlantedLowOccupancyKernel;
          });
    REQUIRE(occupancy != result.occupancy.end());
    CHECK(
        occupancy->theoretical == 0.125); // 8 of 64 warps: 255 registers leave room for one 256-thread block
    CHECK(occupancy->limiter == "registers");
    CHECK(occupancy->launches == 3);
}

TEST_CASE("the low-utilization plant is reported by the chunks it covers", "[analysis][scenario]")
{
    const gen::ScenarioTrace scenario = cleanWith({Plant::LowUtil});
    const AnalysisOptions options;
    const AnalysisResult result = analyze(scenario.trace, options);
    INFO(describe(result));
    CHECK(rulesFired(result) == std::set<std::string> {"gpu_time_util", "gpu_idle_breakdown"});
    CHECK(findingOf(result, "gpu_gaps") == nullptr);
    const Finding* finding = findingOf(result, "gpu_time_util");
    REQUIRE(finding);
    const std::vector<gen::PlantedEvent> planted = plantedOf(scenario, Plant::LowUtil);
    REQUIRE(planted.size() == 1);
    const TimeRange stretch = planted.front().range;
    REQUIRE(result.gpus.size() == 1);
    // The GPU's active window (its first operation to its last), cut into equal chunks.
    const Duration window = result.gpus[0].span;
    const Duration chunk = window / options.utilizationChunks;
    REQUIRE(chunk > 0);
    CHECK(stretch.duration() > 2 * chunk);
    size_t inside = 0;
    for (const Evidence& e : finding->evidence) {
        CHECK(!e.event);
        CHECK(e.range.duration() >= chunk); // chunks are window / chunks long, give or take a nanosecond
        CHECK(e.range.duration() <= chunk + 1);
        CHECK(e.range.start < stretch.end); // every low chunk overlaps the stretch
        CHECK(e.range.end > stretch.start);
        inside += e.range.start >= stretch.start && e.range.end <= stretch.end ? 1 : 0;
    }
    // Every chunk wholly inside the stretch is reported (at least floor(stretch / chunk) - 1 of them).
    CHECK(inside >= size_t(stretch.duration() / chunk) - 1);
    CHECK(finding->evidenceCount <= size_t(stretch.duration() / chunk) + 2);
}

TEST_CASE("each problem scenario's verdict names its limit", "[analysis][scenario]")
{
    const std::pair<Scenario, Limit> cases[] = {
        {Scenario::ComputeBound, Limit::GpuCompute},
        {Scenario::LaunchBound, Limit::LaunchBound},
        {Scenario::SyncBound, Limit::Synchronization},
        {Scenario::CpuBound, Limit::CpuBound},
        {Scenario::MemoryBound, Limit::MemoryTransfer},
    };
    for (const auto& [scenario, limit] : cases) {
        const gen::ScenarioTrace generated = gen::generateScenario(scenario, {});
        const AnalysisResult result = analyze(generated.trace, {});
        INFO(gen::scenarioName(scenario) << "\n" << describe(result));
        REQUIRE(!result.verdicts.empty());
        CHECK(result.verdicts[0].scope == "whole report");
        CHECK(result.verdicts[0].limit == limit);
        // The "step" NVTX range holds every iteration, so it gets the same verdict.
        REQUIRE(result.verdicts.size() == 2);
        CHECK(result.verdicts[1].scope == "step");
        CHECK(result.verdicts[1].limit == limit);
    }
}

TEST_CASE("a rule subset runs only the rules named", "[analysis][scenario]")
{
    const gen::ScenarioTrace scenario = cleanWith({Plant::SyncApi, Plant::ShortKernels, Plant::GpuGap});
    AnalysisOptions options;
    options.rules = {"cuda_api_sync", "gpu_gaps"};
    const AnalysisResult result = analyze(scenario.trace, options);
    INFO(describe(result));
    CHECK(rulesFired(result) == std::set<std::string> {"cuda_api_sync", "gpu_gaps"});
    const Finding* sync = findingOf(result, "cuda_api_sync");
    REQUIRE(sync);
    CHECK(evidencePlaces(scenario.trace, *sync) == placesOf(plantedOf(scenario, Plant::SyncApi)));
    CHECK(!result.verdicts.empty()); // the facts and the verdict do not depend on the subset
    CHECK(analyze(scenario.trace, {}).findings.size() > result.findings.size());
}

TEST_CASE("a range reports only the plants that start inside it", "[analysis][scenario]")
{
    const gen::ScenarioTrace scenario = cleanWith({Plant::SyncApi, Plant::LowOccupancy, Plant::SyncMemset});
    const std::vector<gen::PlantedEvent> syncs = plantedOf(scenario, Plant::SyncApi);
    const std::vector<gen::PlantedEvent> kernels = plantedOf(scenario, Plant::LowOccupancy);
    const std::vector<gen::PlantedEvent> memsets = plantedOf(scenario, Plant::SyncMemset);
    REQUIRE(syncs.size() == 3);
    REQUIRE(kernels.size() == 3);
    REQUIRE(memsets.size() == 3);
    // From the start to the second occurrence of the plants: only the first ones count.
    AnalysisOptions options;
    options.range = TimeRange {scenario.trace.span.start,
        std::min({syncs[1].range.start, kernels[1].range.start, memsets[1].range.start})};
    REQUIRE(options.range->end
        > std::max({syncs[0].range.start, kernels[0].range.start, memsets[0].range.start}));
    const AnalysisResult result = analyze(scenario.trace, options);
    INFO(describe(result));
    REQUIRE(!result.verdicts.empty());
    CHECK(result.verdicts[0].scope == "the range analyzed");
    const Finding* sync = findingOf(result, "cuda_api_sync");
    REQUIRE(sync);
    CHECK(evidencePlaces(scenario.trace, *sync) == std::set<Place> {placeOf(syncs[0])});
    const Finding* memset = findingOf(result, "cuda_memset_sync");
    REQUIRE(memset);
    CHECK(evidencePlaces(scenario.trace, *memset) == std::set<Place> {placeOf(memsets[0])});
    // The longest launch inside the range is the first (the 300 us one lies outside).
    const Finding* occupancy = findingOf(result, "low_occupancy");
    REQUIRE(occupancy);
    CHECK(evidencePlaces(scenario.trace, *occupancy) == std::set<Place> {placeOf(kernels[0])});

    // A range after the last plant reports none of them.
    options.range = TimeRange {
        std::max({syncs[2].range.end, kernels[2].range.end, memsets[2].range.end}), scenario.trace.span.end};
    const AnalysisResult after = analyze(scenario.trace, options);
    INFO(describe(after));
    CHECK(findingOf(after, "cuda_api_sync") == nullptr);
    CHECK(findingOf(after, "cuda_memset_sync") == nullptr);
    CHECK(findingOf(after, "low_occupancy") == nullptr);
}

TEST_CASE("a cancelled analysis stops and says so", "[analysis][scenario]")
{
    const gen::ScenarioTrace scenario = cleanWith({Plant::SyncApi, Plant::GpuGap});
    const std::atomic<bool> cancel {true};
    const AnalysisResult result = analyze(scenario.trace, {}, &cancel);
    CHECK(result.cancelled);
    CHECK(result.findings.empty());
    CHECK(result.verdicts.empty());

    const std::atomic<bool> carryOn {false};
    const AnalysisResult finished = analyze(scenario.trace, {}, &carryOn);
    CHECK(!finished.cancelled);
    CHECK(findingOf(finished, "cuda_api_sync") != nullptr);
}
