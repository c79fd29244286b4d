#include "collector/convert/assemble/spool_cursor.h"

#include <algorithm>
#include <filesystem>
#include <tuple>

namespace sightline::collector {

namespace {

// Image number of a spool file: 0 for "<pid>.spool", n for "<pid>.<n>.spool".
int imageIndex(const std::string& path)
{
    const std::string stem = std::filesystem::path(path).stem().string(); // "<pid>" or "<pid>.<n>"
    const size_t dot = stem.find('.');
    if (dot == std::string::npos) return 0;
    try {
        return std::stoi(stem.substr(dot + 1));
    } catch (...) {
        return 0;
    }
}

} // namespace

SpoolCursor::SpoolCursor(std::string folder, size_t chunkBytes)
    : m_folder(std::move(folder))
    , m_chunkBytes(chunkBytes)
{ }

void SpoolCursor::discover()
{
    bool added = false;
    for (std::string& path : listSpoolFiles(m_folder)) {
        if (std::any_of(m_entries.begin(), m_entries.end(), [&](const Entry& e) { return e.path == path; }))
            continue;
        const int image = imageIndex(path);
        m_entries.push_back({std::move(path), image, std::nullopt, {}});
        added = true;
    }
    if (added)
        std::sort(m_entries.begin(), m_entries.end(), [](const Entry& a, const Entry& b) {
            return std::tie(a.image, a.path) < std::tie(b.image, b.path);
        });
}

size_t SpoolCursor::advance()
{
    discover();
    size_t records = 0;
    for (Entry& entry : m_entries) {
        const size_t before = entry.file ? entry.file->recordCount() : 0;
        if (entry.file) {
            const Status read = entry.file->readAppended(m_chunkBytes);
            entry.problem = read.error();
        } else if (Result<SpoolFile> opened = readSpoolFile(entry.path, m_chunkBytes)) {
            entry.file = std::move(opened.value());
            entry.problem.clear();
        } else {
            entry.problem = opened.error();
        }
        records += entry.file ? entry.file->recordCount() - before : 0;
    }
    return records;
}

std::vector<const SpoolFile*> SpoolCursor::files() const
{
    std::vector<const SpoolFile*> files;
    for (const Entry& entry : m_entries)
        if (entry.file) files.push_back(&*entry.file);
    return files;
}

std::vector<Diagnostic> SpoolCursor::problems() const
{
    std::vector<Diagnostic> problems;
    for (const Entry& entry : m_entries)
        if (!entry.problem.empty()) problems.push_back({Severity::Warning, "collector", entry.problem});
    return problems;
}

} // namespace sightline::collector
