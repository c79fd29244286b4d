#include "test_paths.h"

#include <system_error>
#include <unistd.h>
#include <vector>

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

std::filesystem::path processScratchDir(const std::string& name)
{
    // Made on the first call, so destroyed after the fixtures whose set-up called it.
    static struct Removal
    {
        std::vector<std::filesystem::path> folders;
        ~Removal()
        {
            std::error_code ignored;
            for (const auto& folder : folders)
                std::filesystem::remove_all(folder, ignored);
        }
    } removal;
    removal.folders.push_back(scratchDir(name + "-" + std::to_string(getpid())));
    return removal.folders.back();
}

std::filesystem::path binDir()
{
    return std::filesystem::path(SIGHTLINE_BINARY_DIR) / "bin";
}

} // namespace sightline::test
