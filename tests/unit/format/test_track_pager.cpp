// Reading one track a batch at a time (model/format/paging/track_pager.h): every batch of every
// track of a generated report decodes to exactly the events a whole read holds at the same
// stored indexes, gather() returns any events asked for in the order asked, and a report the
// pager cannot trust (cut short, a damaged batch, a footer that disagrees with its batches, a
// track that does not exist) is refused with one sentence naming the file.
#include "../../test_paths.h"
#include "../support/file_bytes.h"
#include "../support/report_chunks.h"
#include "generate.h"
#include "model/format/paging/track_pager.h"
#include "model/format/report_io.h"

#include <catch2/catch.hpp>
#include <mutex>
#include <random>

using namespace sightline;

namespace {

// A generated report in small batches, so that every track has several, with its whole read.
struct PagedReport
{
    std::string path;
    Trace whole;
};

const PagedReport& pagedReport()
{
    static const PagedReport report = [] {
        gen::GeneratorOptions options;
        options.events = 60000;
        const Trace trace = gen::generateTrace(options);
        PagedReport r;
        r.path = (test::processScratchDir("track-pager") / "paged.rep").string();
        WriteOptions write;
        write.eventsPerChunk = 1000;
        REQUIRE(writeReport(trace, r.path, write).ok());
        Result<Trace> read = readReport(r.path);
        REQUIRE(read);
        r.whole = std::move(read.value());
        return r;
    }();
    return report;
}

// Event `i` of `from` equals event `k` of `to`, column by column.
void checkSameEvent(const EventColumns& from, size_t i, const EventColumns& to, size_t k)
{
    CHECK(from.start[i] == to.start[k]);
    CHECK(from.end[i] == to.end[k]);
    CHECK(from.name[i] == to.name[k]);
    if (!from.correlation.empty()) CHECK(from.correlation[i] == to.correlation[k]);
    if (!from.detail.empty()) CHECK(from.detail[i] == to.detail[k]);
    if (!from.value.empty()) CHECK(from.value[i] == to.value[k]);
}

} // namespace

TEST_CASE("a track pager decodes every batch of every track as a whole read holds it")
{
    const PagedReport& report = pagedReport();
    size_t multiLaneTracks = 0;
    for (uint32_t t = 0; t < report.whole.tracks.size(); ++t) {
        const Track& expected = report.whole.tracks[t];
        Result<OpenedTrack> opened = TrackPager::open(report.path, t);
        REQUIRE(opened);
        const TrackPager& pager = *opened.value().pager;
        REQUIRE(pager.eventCount() == expected.size());
        CHECK(pager.track().key == expected.key);
        CHECK(pager.track().laneBegin == expected.laneBegin);
        // The structure holds the strings, the track, and only its kind's descriptors.
        const Trace& structure = opened.value().structure;
        CHECK(structure.strings.size() == report.whole.strings.size());
        REQUIRE(structure.tracks.size() == 1);
        CHECK(structure.tracks.front().key == expected.key);
        CHECK(structure.kernelLaunches.size()
            == (expected.key.kind == TrackKind::Kernels ? report.whole.kernelLaunches.size() : 0));
        CHECK(structure.memoryOps.size()
            == (expected.key.kind == TrackKind::Memory ? report.whole.memoryOps.size() : 0));
        multiLaneTracks += expected.laneCount() > 1;

        // Each batch once, in any order from several workers, covering the track.
        std::vector<uint8_t> seen(expected.size(), 0);
        std::mutex mutex;
        size_t mismatches = 0;
        const Status read = pager.forEachBatch(
            [&](size_t, const TrackPager::Batch& batch) {
                const IndexRange lane = expected.lane(batch.lane);
                std::lock_guard lock(mutex);
                for (uint32_t k = 0; k < batch.events.size(); ++k) {
                    const uint32_t stored = batch.storedFirst + k;
                    if (stored < lane.begin || stored >= lane.end) ++mismatches;
                    ++seen[stored];
                    const EventColumns& a = batch.events.events;
                    const EventColumns& b = expected.events;
                    if (a.start[k] != b.start[stored] || a.end[k] != b.end[stored]
                        || a.name[k] != b.name[stored]
                        || (!b.correlation.empty() && a.correlation[k] != b.correlation[stored])
                        || (!b.detail.empty() && a.detail[k] != b.detail[stored])
                        || (!b.value.empty() && a.value[k] != b.value[stored]))
                        ++mismatches;
                }
                return Status();
            },
            3);
        REQUIRE(read);
        CHECK(mismatches == 0);
        CHECK(std::count(seen.begin(), seen.end(), uint8_t(1)) == std::ptrdiff_t(expected.size()));
    }
    CHECK(multiLaneTracks > 0); // nested NVTX ranges: lanes other than the first are read too
}

TEST_CASE("a track pager gathers the events asked for, in the order asked, repeats included")
{
    const PagedReport& report = pagedReport();
    uint32_t largest = 0;
    for (uint32_t t = 0; t < report.whole.tracks.size(); ++t)
        if (report.whole.tracks[t].size() > report.whole.tracks[largest].size()) largest = t;
    const Track& expected = report.whole.tracks[largest];
    Result<OpenedTrack> opened = TrackPager::open(report.path, largest);
    REQUIRE(opened);
    std::mt19937 random(7);
    std::vector<uint32_t> wanted;
    for (int i = 0; i < 500; ++i)
        wanted.push_back(uint32_t(random() % expected.size()));
    wanted.push_back(wanted.front());
    wanted.push_back(uint32_t(expected.size() - 1));
    Result<EventColumns> gathered = opened.value().pager->gather(wanted, 2);
    REQUIRE(gathered);
    REQUIRE(gathered->size() == wanted.size());
    for (size_t row = 0; row < wanted.size(); ++row)
        checkSameEvent(gathered.value(), row, expected.events, wanted[row]);

    const Result<EventColumns> past
        = opened.value().pager->gather(std::vector<uint32_t> {uint32_t(expected.size())});
    REQUIRE_FALSE(past);
    CHECK(past.error().find("past the track's") != std::string::npos);
}

TEST_CASE("a track pager refuses what it cannot trust with one sentence naming the file")
{
    const PagedReport& report = pagedReport();
    const auto dir = test::scratchDir("track-pager-refusals");

    const auto missingTrack = TrackPager::open(report.path, uint32_t(report.whole.tracks.size()));
    REQUIRE_FALSE(missingTrack);
    CHECK(missingTrack.error().find("has no track") != std::string::npos);
    CHECK(missingTrack.error().find(report.path) != std::string::npos);

    const std::string cut = test::writeCutCopy(report.path, 0.7, (dir / "cut.rep").string());
    const auto fromCut = TrackPager::open(cut, 0);
    REQUIRE_FALSE(fromCut);
    CHECK(fromCut.error().find("was cut short") != std::string::npos);
    CHECK(fromCut.error().find(cut) != std::string::npos);

    const std::string foreign = (dir / "foreign.rep").string();
    test::writeFileBytes(foreign, "this is not a report at all, just some text");
    const auto fromForeign = TrackPager::open(foreign, 0);
    REQUIRE_FALSE(fromForeign);
    CHECK(fromForeign.error().find("not a Sightline report") != std::string::npos);

    // A damaged batch of track 0: opening trusts the footer, decoding finds the damage.
    const std::string damaged = test::withDamagedBatch(report.path, dir, rep::ChunkKind::Events,
        [](const rep::FrameRef& frame) { return frame.track == 0; });
    const auto pager = TrackPager::open(damaged, 0);
    REQUIRE(pager);
    const Status read
        = pager.value().pager->forEachBatch([](size_t, const TrackPager::Batch&) { return Status(); });
    REQUIRE_FALSE(read);
    CHECK(read.error().find("fails its checksum") != std::string::npos);
    CHECK(read.error().find(damaged) != std::string::npos);
    std::vector<uint32_t> all(pager.value().pager->eventCount());
    for (uint32_t i = 0; i < all.size(); ++i)
        all[i] = i;
    CHECK_FALSE(pager.value().pager->gather(all));

    // A footer that says a batch of track 0 holds more events than it does.
    test::ReportChunks chunks = test::splitReport(test::readFileBytes(report.path));
    const std::string lying = (dir / "lying.rep").string();
    test::writeFileBytes(lying, test::joinReport(chunks, [](rep::Footer& footer) {
        for (auto& entry : *footer.mutable_chunks())
            if (entry.kind() == uint32_t(rep::ChunkKind::Events) && entry.track() == 0) {
                entry.set_count(entry.count() + 1);
                break;
            }
    }));
    const auto fromLying = TrackPager::open(lying, 0);
    REQUIRE_FALSE(fromLying);
    CHECK(fromLying.error().find("outside its lane") != std::string::npos);

    // A batch whose own header names another place than its footer entry.
    chunks = test::splitReport(test::readFileBytes(report.path));
    for (auto& [kind, chunk] : chunks.chunks)
        if (kind == rep::ChunkKind::Events && chunk.events().track() == 0) {
            chunk.mutable_events()->set_first_index(chunk.events().first_index() + 1);
            break;
        }
    // The footer still says where the batch belongs.
    const std::string moved = (dir / "moved.rep").string();
    test::writeFileBytes(moved, test::joinReport(chunks, [](rep::Footer& footer) {
        for (auto& entry : *footer.mutable_chunks())
            if (entry.kind() == uint32_t(rep::ChunkKind::Events) && entry.track() == 0) {
                entry.set_first_index(entry.first_index() - 1);
                break;
            }
    }));
    const auto fromMoved = TrackPager::open(moved, 0);
    REQUIRE(fromMoved);
    const Status movedRead
        = fromMoved.value().pager->forEachBatch([](size_t, const TrackPager::Batch&) { return Status(); });
    REQUIRE_FALSE(movedRead);
    CHECK(movedRead.error().find("disagrees with the report's index") != std::string::npos);
}
