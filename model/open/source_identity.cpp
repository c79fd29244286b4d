#include "model/open/source_identity.h"

#include "model/trace/trace.h"

#include <filesystem>

namespace sightline {
namespace {

// FNV-1a, 64 bits: enough spread for a handful of reports in one process.
class Fnv
{
public:
    void add(std::string_view bytes)
    {
        for (const char c : bytes)
            m_hash = (m_hash ^ uint8_t(c)) * 0x100000001b3ull;
        m_hash = (m_hash ^ 0xffu) * 0x100000001b3ull; // a separator: ("ab", "c") is not ("a", "bc")
    }
    uint64_t value() const { return m_hash; }

private:
    uint64_t m_hash = 0xcbf29ce484222325ull;
};

} // namespace

SourceId sourceIdentity(std::string_view reportPath, const ReportMetadata& metadata)
{
    std::error_code error;
    std::filesystem::path path = std::filesystem::weakly_canonical(std::filesystem::path(reportPath), error);
    if (error) path = std::filesystem::absolute(std::filesystem::path(reportPath), error);
    Fnv hash;
    hash.add(error ? std::string(reportPath) : path.string());
    hash.add(metadata.hostname);
    hash.add(std::to_string(metadata.startTimeUtcNs));
    const uint32_t folded = uint32_t(hash.value() ^ (hash.value() >> 32));
    return SourceId(folded == 0 ? 1 : folded);
}

void identifySource(Trace& trace, std::string_view reportPath)
{
    trace.setSource(sourceIdentity(reportPath, trace.metadata));
}

} // namespace sightline
