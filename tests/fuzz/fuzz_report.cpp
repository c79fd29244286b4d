// libFuzzer harness: the .rep readers (model/format) on arbitrary bytes: the whole read, the
// outline (`sightline info`), the overview (the viewer's first paint) and the track pager (the
// Events View of a track over the memory budget: every batch, then a gather). Each must refuse
// or open them with one sentence, never crash, overflow, leak or allocate for sizes the bytes
// only claim.
#include "fuzz_input_file.h"
#include "model/format/paging/track_pager.h"
#include "model/format/report_io.h"
#include "model/format/report_outline.h"
#include "model/format/report_overview.h"

#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string path = sightline::fuzz::writeInputFile(data, size, ".rep");
    sightline::ReadOptions options;
    options.threads = 1;
    (void)sightline::readReport(path, options);
    (void)sightline::readReportOutline(path);
    (void)sightline::readReportOverview(path);
    // The first few tracks, each a batch at a time, then its first and last events gathered.
    for (uint32_t track = 0; track < 4; ++track) {
        auto pager = sightline::TrackPager::open(path, track);
        if (!pager) break;
        const sightline::TrackPager& paged = *pager.value().pager;
        (void)paged.forEachBatch(
            [](size_t, const sightline::TrackPager::Batch&) { return sightline::Status(); }, 1);
        if (paged.eventCount() > 0) {
            const std::vector<uint32_t> ends {0, uint32_t(paged.eventCount() - 1), 0};
            (void)paged.gather(ends, 1);
        }
    }
    return 0;
}
