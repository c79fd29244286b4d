// resizeColumn and reserveColumn: a large column keeps its contents when it grows, and its new
// buffer carries the huge-page advice (the "hg" flag of its mapping in /proc/self/smaps).
#include "model/common/huge_pages.h"

#include <catch2/catch.hpp>
#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

using namespace sightline;

namespace {

// The VmFlags line of the mapping holding `address`, or "" when none does.
std::string vmFlagsOf(const void* address)
{
    const auto at = reinterpret_cast<uintptr_t>(address);
    std::ifstream smaps("/proc/self/smaps");
    std::string line;
    bool inside = false;
    while (std::getline(smaps, line)) {
        uintptr_t first = 0, last = 0;
        char dash = 0;
        std::istringstream range(line);
        if (range >> std::hex >> first >> dash >> last && dash == '-' && line.find(':') > line.find(' '))
            inside = at >= first && at < last;
        else if (inside && line.rfind("VmFlags:", 0) == 0)
            return line;
    }
    return "";
}

bool kernelOffersHugePages()
{
    std::ifstream setting("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string text;
    std::getline(setting, text);
    return !text.empty() && text.find("[never]") == std::string::npos;
}

} // namespace

TEST_CASE("resizeColumn keeps the values and zero-fills the rest")
{
    std::vector<int64_t> column {7, 8, 9};
    const size_t n = kHugePageColumnBytes / sizeof(int64_t) * 2;
    resizeColumn(column, n);
    REQUIRE(column.size() == n);
    CHECK(column[0] == 7);
    CHECK(column[1] == 8);
    CHECK(column[2] == 9);
    CHECK(column[3] == 0);
    CHECK(column[n - 1] == 0);

    resizeColumn(column, 2); // shrinking keeps the buffer and the first values
    CHECK(column == std::vector<int64_t> {7, 8});
}

TEST_CASE("reserveColumn keeps the values and leaves the size alone")
{
    std::vector<uint32_t> column {1, 2, 3};
    const size_t n = kHugePageColumnBytes / sizeof(uint32_t) * 2;
    reserveColumn(column, n);
    CHECK(column == std::vector<uint32_t> {1, 2, 3});
    CHECK(column.capacity() >= n);
}

TEST_CASE("a large column's buffer is advised onto huge pages; a small one is not")
{
    if (!kernelOffersHugePages()) {
        WARN("skipped: transparent huge pages are off (or absent) on this kernel");
        return;
    }
    std::vector<int64_t> large;
    resizeColumn(large, kHugePageColumnBytes / sizeof(int64_t) * 4);
    const std::string flags = vmFlagsOf(large.data() + large.size() / 2);
    INFO(flags);
    CHECK(flags.find(" hg") != std::string::npos);

    std::vector<uint64_t> reserved {5};
    reserveColumn(reserved, kHugePageColumnBytes / sizeof(uint64_t) * 4);
    CHECK(vmFlagsOf(reserved.data() + reserved.capacity() / 2).find(" hg") != std::string::npos);

    std::vector<int64_t> small;
    resizeColumn(small, 1000);
    CHECK(vmFlagsOf(small.data()).find(" hg") == std::string::npos);
}
