// Where tests find their inputs and scratch space.
#pragma once

#include <filesystem>
#include <string>

namespace sightline::test {

// The shared real traces folder, or an empty path when it is absent (tests then skip).
std::filesystem::path sharedTraces();
// A fresh, empty scratch folder for one test, under the build tree.
std::filesystem::path scratchDir(const std::string& name);
// The build's bin folder (sightline, sightline-gen, ...).
std::filesystem::path binDir();

} // namespace sightline::test
