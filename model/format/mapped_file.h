// A read-only memory mapping of a whole file (RAII). Empty files map to an empty span.
#pragma once

#include <cstddef>
#include <span>
#include <string>

namespace sightline {

class MappedFile
{
public:
    MappedFile() = default;
    ~MappedFile();
    MappedFile(const MappedFile&) = delete;
    MappedFile& operator=(const MappedFile&) = delete;

    // Maps `path`; on failure returns false and sets `error` to the system's reason.
    bool open(const std::string& path, std::string& error);
    std::span<const unsigned char> bytes() const { return {m_data, m_size}; }
    size_t size() const { return m_size; }

private:
    const unsigned char* m_data = nullptr;
    size_t m_size = 0;
};

} // namespace sightline
