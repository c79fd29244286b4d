#include "collector/convert/cpu/user_stack.h"

#include "collector/convert/cpu/dwarf_unwinder.h"

#include <algorithm>
#include <array>
#include <cstring>
#include <string_view>

namespace sightline::collector {

namespace {

constexpr uint64_t kFirstCodeAddress = 4096; // nothing executes in the first page

// Where glibc's and musl's threads begin: the outermost frame of a whole stack, as a
// frame-pointer walk (the first caller that keeps a frame pointer) or the call frame
// information (the function that marks its return address undefined) finds it.
constexpr std::array<std::string_view, 10> kThreadStarts = {"_start", "_start_c", "__libc_start_main",
    "__libc_start_call_main", "start_thread", "clone", "clone3", "__clone", "__clone3", "thread_start"};

// The first `frames` entries that are code of `image`; false when one was not.
bool keepCode(ProcessImage& image, std::vector<uint64_t>& frames)
{
    const auto bad = std::find_if(frames.begin(), frames.end(),
        [&](uint64_t ip) { return ip < kFirstCodeAddress || !image.mappingAt(ip); });
    const bool whole = bad == frames.end();
    frames.erase(bad, frames.end());
    return whole;
}

// Whether the kernel's walk of the `chainSize` entries of `sample`'s chain (the sampled
// instruction, then one return address per frame pointer) ended on a null frame pointer: the
// outermost frame that keeps one, as a thread's start clears it. Replayed on the copied stack;
// false where the copy ends first, or for a chain of the sampled instruction alone (code
// without frame pointers leaves a null one in place).
bool endsOnNullFramePointer(const PerfSample& sample, uint64_t registerMask, size_t chainSize)
{
    uint64_t fp = 0, sp = 0;
    if (chainSize < 2 || !sampleRegister(sample, registerMask, kPerfRegisterBp, fp)
        || !sampleRegister(sample, registerMask, kPerfRegisterSp, sp))
        return false;
    const std::string_view stack = sample.userStack;
    for (size_t i = 1; i < chainSize; ++i) {
        if (fp < sp || fp - sp > stack.size() || stack.size() - (fp - sp) < 16) return false;
        uint64_t frame[2];
        memcpy(frame, stack.data() + (fp - sp), sizeof(frame));
        if (frame[1] != sample.userChain[i]) return false;
        fp = frame[0];
    }
    return fp == 0;
}

} // namespace

bool UserStackWalker::isThreadStart(ProcessImage& image, uint64_t address)
{
    auto [it, added] = m_starts.try_emplace(ImageAddress(&image, address), false);
    if (added) {
        const std::string function = image.name(address).function;
        it->second = std::find(kThreadStarts.begin(), kThreadStarts.end(), function) != kThreadStarts.end();
    }
    return it->second;
}

bool UserStackWalker::walk(ProcessImage& image, const PerfSample& sample, std::vector<uint64_t>& frames)
{
    frames.clear();
    const std::span<const uint64_t> chain = sample.userChain;
    if (chain.empty() && sample.userRegisters.empty()) return true; // a kernel thread: no user stack
    ++m_counts.walked;
    if (!m_dwarfOnly) {
        for (size_t i = 0; i < chain.size() && i < kMaxUserFrames; ++i)
            frames.push_back(i == 0 ? chain[i] : chain[i] - 1);
        if (keepCode(image, frames) && !frames.empty()
            && (isThreadStart(image, frames.back())
                || endsOnNullFramePointer(sample, m_registerMask, chain.size())))
            return true;
    }
    m_unwound.clear();
    if (unwindCopiedStack(image, sample, m_registerMask, m_unwound, kMaxUserFrames)) {
        frames.swap(m_unwound);
        ++m_counts.unwound;
        return true;
    }
    // Neither reaches a thread's start: the longer of the two, up to its first address that is
    // not code.
    keepCode(image, m_unwound);
    if (m_unwound.size() > frames.size()) frames.swap(m_unwound);
    if (frames.empty() && !sample.kernelIp && sample.ip >= kFirstCodeAddress) frames.push_back(sample.ip);
    ++m_counts.truncated;
    return false;
}

} // namespace sightline::collector
