// libFuzzer harness: the .rep readers (model/format) on arbitrary bytes: the whole read, the
// outline (`sightline info`) and the overview (the viewer's first paint). Each must refuse or
// open them with one sentence, never crash, overflow, leak or allocate for sizes the bytes only
// claim.
#include "fuzz_input_file.h"
#include "model/format/report_io.h"
#include "model/format/report_outline.h"
#include "model/format/report_overview.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    const std::string path = sightline::fuzz::writeInputFile(data, size, ".rep");
    sightline::ReadOptions options;
    options.threads = 1;
    (void)sightline::readReport(path, options);
    (void)sightline::readReportOutline(path);
    (void)sightline::readReportOverview(path);
    return 0;
}
