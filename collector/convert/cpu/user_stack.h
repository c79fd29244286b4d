// The user-space part of a sample's stack, complete where it can be (a hybrid, as perf's
// `--call-graph=dwarf` for every sample but only where needed): the kernel's frame-pointer
// walk is taken when each of its return addresses lies in code the process mapped and its
// outermost frame is where a thread starts (_start, __libc_start_call_main, start_thread,
// clone3, ...); where it breaks (code built without frame pointers, a garbage frame pointer),
// the copied user stack is unwound with libdw's call frame information instead. A stack that
// reaches no thread start either way is marked truncated, keeping only addresses of code.
//
// Bounded: at most kMaxUserFrames frames and only the bytes the kernel copied. Counted: how
// many samples were unwound from the copy, and how many stayed truncated.
#pragma once

#include "collector/convert/cpu/process_images.h"

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace sightline::collector {

inline constexpr size_t kMaxUserFrames = 128;

struct UserStackCounts
{
    size_t walked = 0; // samples with a user stack
    size_t unwound = 0; // of which completed from the copied stack
    size_t truncated = 0; // of which reach no thread start
};

class UserStackWalker
{
public:
    // `dwarfOnly`: --backtrace=dwarf, every sample unwound from its copy.
    UserStackWalker(uint64_t registerMask, bool dwarfOnly)
        : m_registerMask(registerMask)
        , m_dwarfOnly(dwarfOnly)
    { }

    // Fills `frames` with `sample`'s user instruction addresses, innermost first (return
    // addresses moved back into their calls); returns false when the stack is truncated.
    bool walk(ProcessImage& image, const PerfSample& sample, std::vector<uint64_t>& frames);

    const UserStackCounts& counts() const { return m_counts; }

private:
    bool isThreadStart(ProcessImage& image, uint64_t address);

    uint64_t m_registerMask;
    bool m_dwarfOnly;
    UserStackCounts m_counts;
    std::unordered_map<ImageAddress, bool, ImageAddressHash> m_starts; // is a thread's start
    std::vector<uint64_t> m_unwound;
};

} // namespace sightline::collector
