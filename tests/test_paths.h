// Where tests find their inputs and scratch space.
#pragma once

#include <filesystem>
#include <string>

namespace sightline::test {

// The shared real traces folder, or an empty path when it is absent (tests then skip).
std::filesystem::path sharedTraces();
// A fresh, empty scratch folder for one test, under the build tree.
std::filesystem::path scratchDir(const std::string& name);
// A fresh scratch folder of this process alone, removed when it exits: for a fixture several
// test cases share, since CTest runs each test case as a process of its own, two at a time, and
// scratchDir() would empty the folder under the other one.
std::filesystem::path processScratchDir(const std::string& name);
// The build's bin folder (sightline, sightline-gen, ...).
std::filesystem::path binDir();

} // namespace sightline::test
