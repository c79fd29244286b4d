// Golden reports: files written by the build before a change that must not alter output (the
// restructure of issue 16 was checked so). A test writes the same input again and compares
// the bytes; when a change is meant to alter the format, regenerate the files with the new
// build and say so in the commit.
#pragma once

#include <filesystem>
#include <string>

namespace sightline::test {

// tests/data/golden/<name> in the source tree.
std::filesystem::path goldenFile(const std::string& name);
// The whole file's bytes ("" when it cannot be read).
std::string fileBytes(const std::filesystem::path& path);

} // namespace sightline::test
