#include "test_paths.h"

namespace sightline::test {

std::filesystem::path sharedTraces()
{
    std::filesystem::path p(SIGHTLINE_SHARED_TRACES);
    return std::filesystem::is_directory(p) ? p : std::filesystem::path();
}

std::filesystem::path scratchDir(const std::string& name)
{
    auto p = std::filesystem::path(SIGHTLINE_BINARY_DIR) / "test-scratch" / name;
    std::filesystem::remove_all(p);
    std::filesystem::create_directories(p);
    return p;
}

std::filesystem::path binDir()
{
    return std::filesystem::path(SIGHTLINE_BINARY_DIR) / "bin";
}

} // namespace sightline::test
