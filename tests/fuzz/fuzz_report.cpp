// libFuzzer harness: the .rep reader (model/format) on arbitrary bytes. It must refuse or open
// them with one sentence, never crash, overflow, leak or allocate for sizes the bytes only claim.
#include "fuzz_input_file.h"
#include "model/format/report_io.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    sightline::ReadOptions options;
    options.threads = 1;
    (void)sightline::readReport(sightline::fuzz::writeInputFile(data, size, ".rep"), options);
    return 0;
}
