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

// Whether the kernel's walk of the `chainSize` entries of `sample`'s chain ended on a null frame
// pointer (spool/frame_pointer_walk.h), replayed on the copied stack; the launcher, which
// replays it on the whole copy, keeps only the leaf's part of a sample it found whole.
bool endsOnNullFramePointer(const PerfSample& sample, uint64_t registerMask, size_t chainSize)
{
    if (sample.userStackCut) return true;
    uint64_t fp = 0, sp = 0;
    return sampleRegister(sample, registerMask, kPerfRegisterBp, fp)
        && sampleRegister(sample, registerMask, kPerfRegisterSp, sp)
        && spool::walkEndsOnNullFramePointer(fp, sp, sample.userStack, sample.userChain.data(), chainSize);
}

uint64_t hashOf(std::string_view bytes)
{
    uint64_t hash = bytes.size() * 0x9E3779B97F4A7C15ull;
    size_t at = 0;
    for (uint64_t word = 0; at + 8 <= bytes.size(); at += 8) {
        memcpy(&word, bytes.data() + at, 8);
        hash = (hash ^ word) * 0xff51afd7ed558ccdull;
        hash ^= hash >> 29;
    }
    for (; at < bytes.size(); ++at)
        hash = (hash ^ uint8_t(bytes[at])) * 0x100000001B3ull;
    return hash;
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

void UserStackWalker::addLeafCaller(
    ProcessImage& image, const PerfSample& sample, std::vector<uint64_t>& frames)
{
    // A leaf whose CFA is the stack pointer's has not set the frame pointer up (or no longer
    // has): the kernel's walk began at its caller's frame and skipped the caller itself.
    auto [it, added] = m_leafCfa.try_emplace(ImageAddress(&image, frames[0]));
    if (added) it->second = stackPointerCfaOffset(image, frames[0]);
    uint64_t sp = 0;
    if (!it->second || !sampleRegister(sample, m_registerMask, kPerfRegisterSp, sp)) return;
    const uint64_t at = sp + uint64_t(*it->second) - 8; // the return address, below the CFA
    const std::string_view stack = sample.userStack;
    if (at < sp || at - sp > stack.size() || stack.size() - (at - sp) < 8) return;
    uint64_t returnAddress = 0;
    memcpy(&returnAddress, stack.data() + (at - sp), sizeof(returnAddress));
    if (returnAddress >= kFirstCodeAddress) frames.insert(frames.begin() + 1, returnAddress - 1);
}

bool UserStackWalker::unwind(ProcessImage& image, const PerfSample& sample, std::vector<uint64_t>& frames)
{
    constexpr int kPerfRegisterIp = 8;
    UnwindKey key {&image};
    if (!sampleRegister(sample, m_registerMask, kPerfRegisterIp, key.ip)
        || !sampleRegister(sample, m_registerMask, kPerfRegisterSp, key.sp))
        return unwindCopiedStack(image, sample, m_registerMask, frames, kMaxUserFrames);
    sampleRegister(sample, m_registerMask, kPerfRegisterBp, key.bp);
    const std::string_view stack = sample.userStack;
    if (auto it = m_memo.find(key); it != m_memo.end()) {
        const UnwindMemo& memo = it->second;
        if (memo.bytes <= stack.size() && hashOf(stack.substr(0, memo.bytes)) == memo.hash) {
            frames.assign(memo.frames.begin(), memo.frames.end());
            return memo.whole;
        }
    }
    size_t bytes = 0;
    const bool whole = unwindCopiedStack(image, sample, m_registerMask, frames, kMaxUserFrames, &bytes);
    if (m_memo.size() >= kMaxUnwindMemo) m_memo.clear();
    m_memo[key] = {bytes, hashOf(stack.substr(0, bytes)), whole, frames};
    return whole;
}

bool UserStackWalker::walk(
    ProcessImage& image, const PerfSample& sample, std::vector<uint64_t>& frames, bool namedStartOnly)
{
    frames.clear();
    const std::span<const uint64_t> chain = sample.userChain;
    if (chain.empty() && sample.userRegisters.empty()) return true; // a kernel thread: no user stack
    ++m_counts.walked;
    if (!m_dwarfOnly) {
        for (size_t i = 0; i < chain.size() && i < kMaxUserFrames; ++i)
            frames.push_back(i == 0 ? chain[i] : chain[i] - 1);
        if (!frames.empty()) addLeafCaller(image, sample, frames);
        if (keepCode(image, frames) && !frames.empty()
            && (isThreadStart(image, frames.back())
                || (!namedStartOnly && endsOnNullFramePointer(sample, m_registerMask, chain.size()))))
            return true;
    }
    m_unwound.clear();
    if (unwind(image, sample, m_unwound)) {
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
