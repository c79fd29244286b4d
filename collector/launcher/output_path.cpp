#include "collector/launcher/output_path.h"

#include <filesystem>

namespace sightline::collector {

namespace {

std::string expand(const std::string& pattern, uint32_t pid, const std::string& host)
{
    std::string out;
    for (size_t i = 0; i < pattern.size(); ++i) {
        if (pattern[i] != '%' || i + 1 == pattern.size()) {
            out += pattern[i];
            continue;
        }
        const char code = pattern[++i];
        if (code == 'p')
            out += std::to_string(pid);
        else if (code == 'h')
            out += host;
        else if (code == '%')
            out += '%';
        else
            out += std::string("%") + code;
    }
    return out;
}

bool endsWith(const std::string& text, const std::string& suffix)
{
    return text.size() >= suffix.size()
        && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

} // namespace

bool outputNeedsPid(const std::string& requested)
{
    return requested.find("%p") != std::string::npos;
}

Result<std::string> resolveReportPath(
    const std::string& requested, uint32_t pid, const std::string& host, bool forceOverwrite)
{
    namespace fs = std::filesystem;
    std::error_code error;
    if (requested.empty()) {
        for (int n = 1; n < 100000; ++n) {
            const std::string candidate = "report" + std::to_string(n) + ".rep";
            if (!fs::exists(candidate, error)) return candidate;
        }
        return Result<std::string>::failure(
            "sightline profile: report1.rep to report99999.rep all exist in this "
            "folder; choose a name with -o.");
    }
    std::string path = expand(requested, pid, host);
    if (!endsWith(path, ".rep")) path += ".rep";
    if (fs::exists(path, error) && !forceOverwrite)
        return Result<std::string>::failure(path
            + ": the report already exists; use --force-overwrite (-f) to "
              "replace it, or choose another name with -o.");
    const fs::path parent = fs::path(path).parent_path();
    if (!parent.empty() && !fs::is_directory(parent, error))
        return Result<std::string>::failure(path + ": the folder " + parent.string()
            + " does not exist; create it or choose another -o path.");
    return path;
}

} // namespace sightline::collector
