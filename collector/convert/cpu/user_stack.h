// The user-space part of a sample's stack, complete where it can be (a hybrid, as perf's
// `--call-graph=dwarf` for every sample but only where needed): the kernel's frame-pointer
// walk is taken, with the caller of a leaf that keeps no frame pointer (whom the walk skips)
// read from the copy at the leaf's CFA, when each of its return addresses lies in code the process mapped and
// its outermost frame is where a thread starts (_start, __libc_start_call_main, start_thread, clone3, ...);
// where it breaks (code built without frame pointers, a garbage frame pointer), the copied user stack is
// unwound with libdw's call frame information instead. A stack that reaches no thread start either way is
// marked truncated, keeping only addresses of code.
//
// Unwinding is costly (libdwfl evaluates every register's rule in every frame), and samples of
// one loop repeat it: the last result for each (image, instruction, stack and frame pointer)
// is kept with a hash of the bytes of the copy it read, and reused while they are the same.
// (The other registers are left out of the key: x86-64 code defines its CFA by the stack or
// frame pointer, save for stack realignment.)
//
// Bounded: at most kMaxUserFrames frames, only the bytes the kernel copied, at most
// kMaxUnwindMemo remembered unwindings. Counted: how many samples were unwound from the copy,
// and how many stayed truncated.
#pragma once

#include "collector/convert/cpu/process_images.h"

#include <cstdint>
#include <optional>
#include <unordered_map>
#include <vector>

namespace sightline::collector {

inline constexpr size_t kMaxUserFrames = 128;
inline constexpr size_t kMaxUnwindMemo = 1 << 16;

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
    // `namedStartOnly`: a frame-pointer walk counts as whole only where it reaches a named thread
    // start, not where it ends on a null frame pointer (which a frame without one can leave, as
    // CPython's interpreter loop does, hiding the frames the Python stack is merged into).
    bool walk(ProcessImage& image, const PerfSample& sample, std::vector<uint64_t>& frames,
        bool namedStartOnly = false);

    const UserStackCounts& counts() const { return m_counts; }

private:
    bool isThreadStart(ProcessImage& image, uint64_t address);
    void addLeafCaller(ProcessImage& image, const PerfSample& sample, std::vector<uint64_t>& frames);
    bool unwind(ProcessImage& image, const PerfSample& sample, std::vector<uint64_t>& frames);

    struct UnwindKey
    {
        const ProcessImage* image = nullptr;
        uint64_t ip = 0, sp = 0, bp = 0;
        friend bool operator==(const UnwindKey&, const UnwindKey&) = default;
    };
    struct UnwindKeyHash
    {
        size_t operator()(const UnwindKey& k) const noexcept
        {
            return std::hash<uint64_t> {}(
                (k.ip * 0x9E3779B97F4A7C15ull) ^ k.sp ^ (k.bp << 17) ^ reinterpret_cast<uintptr_t>(k.image));
        }
    };
    struct UnwindMemo
    {
        size_t bytes = 0; // of the copy that the unwinding read
        uint64_t hash = 0; // of those bytes
        bool whole = false;
        std::vector<uint64_t> frames;
    };

    uint64_t m_registerMask;
    bool m_dwarfOnly;
    UserStackCounts m_counts;
    std::unordered_map<ImageAddress, bool, ImageAddressHash> m_starts; // is a thread's start
    std::unordered_map<ImageAddress, std::optional<int64_t>, ImageAddressHash> m_leafCfa; // of leaves
    std::unordered_map<UnwindKey, UnwindMemo, UnwindKeyHash> m_memo;
    std::vector<uint64_t> m_unwound;
};

} // namespace sightline::collector
