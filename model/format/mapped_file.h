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

    // How the file will be read: all of it (the kernel reads ahead the whole file at once), or
    // a few places in it (nothing is read ahead: a reader of a few small chunks of a large
    // report, cold or warm, then costs what it reads, not what the file holds).
    enum class Access { Whole, Sparse };
    // Maps `path`; fails with "Cannot open 'PATH': REASON."
    Status open(const std::string& path, Access access = Access::Whole);
    std::span<const unsigned char> bytes() const { return {m_data, m_size}; }
    size_t size() const { return m_size; }

private:
    const unsigned char* m_data = nullptr;
    size_t m_size = 0;
};

} // namespace sightline
