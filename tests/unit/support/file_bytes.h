// Whole files as bytes, for tests that damage or craft files: read, change, write back.
#pragma once

#include <fstream>
#include <iterator>
#include <string>

namespace sightline::test {

inline std::string readFileBytes(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), {});
}

inline void writeFileBytes(const std::string& path, const std::string& bytes)
{
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), std::streamsize(bytes.size()));
}

} // namespace sightline::test
