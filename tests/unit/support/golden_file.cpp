#include "golden_file.h"

#include <fstream>
#include <sstream>

namespace sightline::test {

std::filesystem::path goldenFile(const std::string& name)
{
    return std::filesystem::path(SIGHTLINE_SOURCE_DIR) / "tests" / "data" / "golden" / name;
}

std::string fileBytes(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

} // namespace sightline::test
