// Python frames merged into native stacks (collector/convert/cpu/python_stacks.h): each
// interpreter-loop frame gives way to the Python frames of its run, in order through a C
// extension; a Python stack that does not fit its native stack is left out, never forced in;
// the Python chunks of a recording read back, and a damaged one is refused.
#include "collector/convert/cpu/python_stacks.h"
#include "collector/spool/python_stack_records.h"

#include <catch2/catch.hpp>
#include <cstring>

using namespace sightline::collector;
namespace records = sightline::spool::python_stacks;

namespace {

constexpr uint64_t kEval = 0xE000; // the addresses of _PyEval_EvalFrameDefault here
constexpr uint64_t kLeaf = 0x1000, kExtension = 0x2000, kStart = 0x3000;
constexpr uint32_t kAlpha = 3, kMain = 2, kModule = 1;

bool isEval(uint64_t ip)
{
    return ip == kEval;
}

// The frames of `merged`, Python ones as "py:ID", native ones as their address.
std::vector<std::string> named(const std::vector<MergedFrame>& merged)
{
    std::vector<std::string> out;
    for (const MergedFrame& frame : merged)
        out.push_back((frame.python ? "py:" : "ip:") + std::to_string(frame.value));
    return out;
}

std::string ip(uint64_t address)
{
    return "ip:" + std::to_string(address);
}

std::string py(uint32_t code)
{
    return "py:" + std::to_string(code);
}

} // namespace

TEST_CASE("Each interpreter call gives way to its run of Python frames, through a C extension")
{
    // alpha (entry of the inner loop call), main, <module> (entry of the outer one).
    const std::vector<uint32_t> frames {
        kAlpha | records::kEntryFrameBit, kMain, kModule | records::kEntryFrameBit};
    const PythonStack python {100, 1, 1, frames};
    const std::vector<uint64_t> native {kLeaf, kEval, kExtension, kEval, kStart};
    std::vector<MergedFrame> merged;
    REQUIRE(PythonFrameMerger::merge(native, true, python, isEval, merged));
    CHECK(named(merged)
        == std::vector<std::string> {
            ip(kLeaf), py(kAlpha), ip(kExtension), py(kMain), py(kModule), ip(kStart)});
}

TEST_CASE("A frame still being set up (code id 0) is left out of its run")
{
    const std::vector<uint32_t> frames {0, kMain, kModule | records::kEntryFrameBit};
    const PythonStack python {100, 1, 1, frames};
    const std::vector<uint64_t> native {kEval, kStart};
    std::vector<MergedFrame> merged;
    REQUIRE(PythonFrameMerger::merge(native, true, python, isEval, merged));
    CHECK(named(merged) == std::vector<std::string> {py(kMain), py(kModule), ip(kStart)});
}

TEST_CASE("A Python stack that no longer fits a whole native stack is left out")
{
    std::vector<MergedFrame> merged;
    const std::vector<uint64_t> native {kLeaf, kEval, kExtension, kEval, kStart};
    SECTION("fewer runs than interpreter calls (the callback had returned)")
    {
        const std::vector<uint32_t> frames {kMain, kModule | records::kEntryFrameBit};
        CHECK_FALSE(PythonFrameMerger::merge(native, true, {100, 1, 1, frames}, isEval, merged));
    }
    SECTION("more runs than interpreter calls (a callback had begun)")
    {
        const std::vector<uint32_t> frames {kAlpha | records::kEntryFrameBit, kMain | records::kEntryFrameBit,
            kModule | records::kEntryFrameBit};
        CHECK_FALSE(PythonFrameMerger::merge(native, true, {100, 1, 1, frames}, isEval, merged));
    }
    CHECK(named(merged)
        == std::vector<std::string> {ip(kLeaf), ip(kEval), ip(kExtension), ip(kEval), ip(kStart)});
}

TEST_CASE("A truncated native stack keeps the runs left over at its outer end")
{
    const std::vector<uint32_t> frames {
        kAlpha | records::kEntryFrameBit, kMain, kModule | records::kEntryFrameBit};
    const std::vector<uint64_t> native {kLeaf, kEval, kExtension};
    std::vector<MergedFrame> merged;
    REQUIRE(PythonFrameMerger::merge(native, false, {100, 1, 1, frames}, isEval, merged));
    CHECK(named(merged)
        == std::vector<std::string> {ip(kLeaf), py(kAlpha), ip(kExtension), py(kMain), py(kModule)});
}

TEST_CASE("Python chunks read back into code names and stacks, and a damaged entry is refused")
{
    alignas(8) char chunk[80] = {};
    const records::CodeEntryHeader code {records::kCodeEntry, 40, 7, 12, 5, 8};
    memcpy(chunk, &code, sizeof(code));
    memcpy(chunk + sizeof(code), "alphaf.py:x.py", 13); // name "alpha", file "f.py:x.p" cut at 8
    const records::StackEntryHeader stack {records::kStackEntry, 40, 10, 11, 555, 2, 0};
    memcpy(chunk + 40, &stack, sizeof(stack));
    const uint32_t frames[2] = {7 | records::kEntryFrameBit, 0};
    memcpy(chunk + 40 + sizeof(stack), frames, sizeof(frames));

    PerfRecording recording;
    REQUIRE(readPythonChunk(std::string_view(chunk, sizeof(chunk)), recording));
    REQUIRE(recording.pythonCodes.count(7) == 1);
    CHECK(recording.pythonCodes.at(7).name == "alpha");
    CHECK(recording.pythonCodes.at(7).file == "f.py:x.p");
    CHECK(recording.pythonCodes.at(7).firstLine == 12);
    REQUIRE(recording.pythonStacks.size() == 1);
    const PythonStack& read = recording.pythonStacks[0];
    CHECK(read.time == 555);
    CHECK(read.pid == 10);
    CHECK(read.tid == 11);
    CHECK(std::vector<uint32_t>(read.frames.begin(), read.frames.end())
        == std::vector<uint32_t>(frames, frames + 2));

    // A stack entry that claims more frames than it holds.
    const records::StackEntryHeader tooMany {records::kStackEntry, 40, 10, 11, 555, 3, 0};
    memcpy(chunk + 40, &tooMany, sizeof(tooMany));
    PerfRecording damaged;
    CHECK_FALSE(readPythonChunk(std::string_view(chunk, sizeof(chunk)), damaged));
}
