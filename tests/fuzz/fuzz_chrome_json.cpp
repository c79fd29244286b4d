// libFuzzer harness: the Chrome trace / PyTorch (Kineto) JSON importer (model/import/chrome) on
// arbitrary bytes, plain or gzip.
#include "fuzz_input_file.h"
#include "model/import/importers.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    sightline::ReadOptions options;
    options.threads = 1;
    (void)sightline::importChromeTrace(sightline::fuzz::writeInputFile(data, size, ".json"), options);
    return 0;
}
