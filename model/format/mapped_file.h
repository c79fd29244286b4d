// A read-only memory mapping of a whole file (RAII). Empty files map to an empty span.
#pragma once

#include "model/common/result.h"

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

    // Maps `path`; fails with "Cannot open 'PATH': REASON."
    Status open(const std::string& path);
    std::span<const unsigned char> bytes() const { return {m_data, m_size}; }
    size_t size() const { return m_size; }

private:
    const unsigned char* m_data = nullptr;
    size_t m_size = 0;
};

} // namespace sightline
