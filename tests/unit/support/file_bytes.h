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

// A copy of the file at `path`, cut to its first `fraction` of bytes, written to `cutPath`: a
// report whose writing stopped part way. Returns `cutPath`.
inline std::string writeCutCopy(const std::string& path, double fraction, const std::string& cutPath)
{
    std::string bytes = readFileBytes(path);
    bytes.resize(size_t(double(bytes.size()) * fraction));
    writeFileBytes(cutPath, bytes);
    return cutPath;
}

} // namespace sightline::test
