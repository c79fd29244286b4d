// The diagnosis on real reports: five captures of tests/gpu/bottlenecks.cu on an H200 (each
// program limited by one thing, tests/data/captures), the bundled sample, and every trace in
// the shared real-traces folder (Nsight Systems exports and PyTorch traces).
#include "model/analysis/analysis.h"
#include "model/import/open_trace.h"
#include "test_paths.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <sqlite3.h>

using namespace sightline;

namespace {

Trace openReport(const std::string& relativePath)
{
    Result<Trace> trace = openTrace(std::string(SIGHTLINE_SOURCE_DIR) + "/" + relativePath);
    REQUIRE(trace);
    return std::move(trace.value());
}

Trace openCapture(const std::string& name)
{
    return openReport("tests/data/captures/" + name + ".rep");
}

const Verdict& verdictOf(const AnalysisResult& result, const std::string& scope)
{
    const auto found = std::find_if(
        result.verdicts.begin(), result.verdicts.end(), [&](const Verdict& v) { return v.scope == scope; });
    REQUIRE(found != result.verdicts.end());
    return *found;
}

const Finding* findingOf(const AnalysisResult& result, const std::string& rule)
{
    for (const Finding& f : result.findings)
        if (f.rule == rule) return &f;
    return nullptr;
}

size_t pageableEvidence(const Finding* finding)
{
    if (!finding) return 0;
    return size_t(std::count_if(finding->evidence.begin(), finding->evidence.end(),
        [](const Evidence& e) { return e.label.find("Pageable") != std::string::npos; }));
}

int64_t countRows(const std::filesystem::path& database, const char* sql)
{
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open_v2(database.c_str(), &db, SQLITE_OPEN_READONLY, nullptr) == SQLITE_OK);
    sqlite3_stmt* statement = nullptr;
    REQUIRE(sqlite3_prepare_v2(db, sql, -1, &statement, nullptr) == SQLITE_OK);
    REQUIRE(sqlite3_step(statement) == SQLITE_ROW);
    const int64_t count = sqlite3_column_int64(statement, 0);
    sqlite3_finalize(statement);
    sqlite3_close(db);
    return count;
}

} // namespace

TEST_CASE("Real captures: each program's limit is the verdict of its measured range", "[analysis][real]")
{
    const std::pair<const char*, Limit> cases[]
        = {{"pageable", Limit::MemoryTransfer}, {"launch-bound", Limit::LaunchBound},
            {"sync-bound", Limit::Synchronization}, {"compute-bound", Limit::GpuCompute}};
    for (const auto& [name, limit] : cases) {
        INFO(name);
        const Trace trace = openCapture(name);
        const AnalysisResult result = analyze(trace, {});
        const Verdict& work = verdictOf(result, "work");
        INFO(work.reason);
        CHECK(work.limit == limit);
        CHECK(result.verdicts.front().limit == limit);
    }
}

TEST_CASE("Real captures: pageable copies are found, pinned ones are not", "[analysis][real]")
{
    const Trace pageable = openCapture("pageable");
    const AnalysisResult found = analyze(pageable, {});
    const Finding* copies = findingOf(found, "pageable_copies");
    REQUIRE(copies);
    // The program copies its 256 MiB input from pageable memory 6 times, and 6 partial sums back.
    CHECK(copies->evidenceCount == 12);
    CHECK(pageableEvidence(findingOf(found, "cuda_memcpy_sync")) == 12);
    CHECK(!findingOf(found, "cuda_memcpy_async"));

    const Trace pinned = openCapture("pinned-streams");
    const AnalysisResult clean = analyze(pinned, {});
    CHECK(!findingOf(clean, "pageable_copies"));
    CHECK(!findingOf(clean, "cuda_memcpy_async"));
    CHECK(!findingOf(clean, "cuda_memcpy_sync"));
}

TEST_CASE("Real captures: a synchronization-bound loop's waits are evidence", "[analysis][real]")
{
    const Trace trace = openCapture("sync-bound");
    const AnalysisResult result = analyze(trace, {});
    const Finding* sync = findingOf(result, "cuda_api_sync");
    REQUIRE(sync);
    // 20,000 iterations of a 10 us kernel followed by cudaDeviceSynchronize.
    CHECK(sync->evidenceCount == 20000);
    CHECK(sync->evidence.size() == AnalysisOptions {}.evidenceLimit);
    REQUIRE(!result.gpus.empty());
    CHECK(result.gpus.front().idleSynchronizing > 0);
}

TEST_CASE("Real traces: every shared trace and the sample analyze; pipit's pageable copies match SQL",
    "[analysis][real]")
{
    const Trace sample = openReport("resources/samples/sample.rep");
    CHECK(!analyze(sample, {}).verdicts.empty());

    const std::filesystem::path folder = test::sharedTraces();
    if (folder.empty()) {
        WARN("The shared real-traces folder is absent; skipping the checks on real traces.");
        return;
    }
    size_t analyzed = 0;
    for (const auto& entry : std::filesystem::directory_iterator(folder)) {
        const std::string name = entry.path().filename().string();
        if (!name.ends_with(".sqlite") && !name.ends_with(".json") && !name.ends_with(".json.gz")) continue;
        INFO(name);
        Result<Trace> trace = openTrace(entry.path().string());
        REQUIRE(trace);
        const AnalysisResult result = analyze(trace.value(), {});
        CHECK(!result.cancelled);
        REQUIRE(!result.verdicts.empty());
        ++analyzed;
        if (!name.starts_with("pipit__")) continue;
        const int64_t pageable = countRows(entry.path(),
            "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_MEMCPY WHERE srcKind = 0 OR dstKind = 0"); // 0:
                                                                                                 // pageable
        CHECK(pageable > 0);
        const Finding* all = findingOf(result, "pageable_copies");
        REQUIRE(all);
        CHECK(int64_t(all->evidenceCount) == pageable);
        CHECK(int64_t(pageableEvidence(findingOf(result, "cuda_memcpy_async"))
                  + pageableEvidence(findingOf(result, "cuda_memcpy_sync")))
            == pageable);
    }
    CHECK(analyzed >= 7);
}
