// libFuzzer harness: the Nsight Systems SQLite importer (model/import/nsys) on arbitrary bytes.
#include "fuzz_input_file.h"
#include "model/import/importers.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    sightline::ReadOptions options;
    options.threads = 1;
    (void)sightline::importNsysSqlite(sightline::fuzz::writeInputFile(data, size, ".sqlite"), options);
    return 0;
}
