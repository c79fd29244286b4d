// The generator's 20k-event report, written again, is byte for byte the golden one.
#include "../support/golden_file.h"
#include "model/format/report_io.h"
#include "test_paths.h"
#include "tests/tools/generator/generate.h"

#include <catch2/catch.hpp>

using namespace sightline;

TEST_CASE("a generated report is byte-identical to the golden one")
{
    gen::GeneratorOptions options;
    options.events = 20000;
    const std::filesystem::path out = test::scratchDir("golden_generated") / "generated.rep";
    REQUIRE(writeReport(gen::generateTrace(options), out.string()).ok());
    const std::string golden = test::fileBytes(test::goldenFile("generated_20k.rep"));
    REQUIRE(golden.size() > 1000);
    CHECK(test::fileBytes(out) == golden);
}
