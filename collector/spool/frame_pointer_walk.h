// Whether the kernel's frame-pointer walk of a sample (its user callchain) reached the thread's
// outermost frame: replayed on the user stack copied with the sample, every frame's saved return
// address must be the chain's next entry and the last frame pointer must be null (a thread's
// start clears it). The launcher asks it while it drains samples (a whole walk needs only the
// leaf's part of the copy), the conversion when it chooses between the walk and unwinding the
// copy. Header-only, like the rest of collector/spool.
#pragma once

#include <cstdint>
#include <cstring>
#include <string_view>

namespace sightline::spool {

// perf's numbering of the x86-64 user registers (perf_regs.h): the frame and stack pointers.
inline constexpr int kPerfRegisterBp = 6;
inline constexpr int kPerfRegisterSp = 7;

// The value of perf register `perfRegister` among `values`, the registers `registerMask` asked
// for, in the kernel's order; false when the mask left it out.
inline bool perfRegisterValue(
    const uint64_t* values, size_t count, uint64_t registerMask, int perfRegister, uint64_t& value)
{
    if ((registerMask >> perfRegister & 1) == 0) return false;
    const size_t index = size_t(__builtin_popcountll(registerMask & ((uint64_t(1) << perfRegister) - 1)));
    if (index >= count) return false;
    value = values[index];
    return true;
}

// `chain` holds the user callchain: the sampled instruction, then one return address per frame.
// False for a chain of the sampled instruction alone (code without frame pointers leaves a null
// one in place), and where the copy ends before the walk does.
inline bool walkEndsOnNullFramePointer(
    uint64_t fp, uint64_t sp, std::string_view stack, const uint64_t* chain, size_t chainSize)
{
    if (chainSize < 2) return false;
    for (size_t i = 1; i < chainSize; ++i) {
        if (fp < sp || fp - sp > stack.size() || stack.size() - (fp - sp) < 16) return false;
        uint64_t frame[2];
        memcpy(frame, stack.data() + (fp - sp), sizeof(frame));
        if (frame[1] != chain[i]) return false;
        fp = frame[0];
    }
    return fp == 0;
}

} // namespace sightline::spool
