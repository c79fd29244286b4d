// The CPU side of a recording: sampled call stacks, thread states, and stacks attached to host
// events (the backtrace of a slow CUDA API call).
//
// Call stacks are interned once in a tree, like Perfetto's callsite table: a node is one frame
// called from its parent node, so a stack is the id of its leaf node and a million samples of
// the same loop cost one id each. Frames are interned too (function, module, offset).
//
// Samples are kept sorted by thread, then time, so one thread's samples over a window are two
// binary searches (`threadSamples`). Thread states are intervals, sorted the same way and not
// overlapping within a thread; a state that begins with the thread leaving the CPU carries the
// stack it left from, which says why it waited.
#pragma once

#include "model/core/ids.h"
#include "model/core/time.h"

#include <cstdint>
#include <span>
#include <vector>

namespace sightline {

inline constexpr uint32_t kNoCallStack = UINT32_MAX;

enum class ThreadState : uint8_t {
    Running = 0, // on a CPU
    Runnable = 1, // preempted: ready, waiting for a CPU
    Sleeping = 2, // waiting for a timer (nanosleep, usleep, ...)
    Blocked = 3, // waiting on synchronization (mutex, condition variable, futex, join)
    WaitingIo = 4, // waiting on a file, socket or pipe (read, poll, ...)
    Waiting = 5, // off the CPU by its own choice, for a reason the stack does not tell
};
inline constexpr uint8_t kThreadStateCount = 6;

struct StackFrame
{
    StringId function; // demangled name; "0x7f12..." when unresolved
    StringId module; // file name of the module ("libc.so.6"); empty when unknown
    uint64_t offset = 0; // the address within the module (the absolute address when unknown)
    bool kernel = false;
    friend bool operator==(const StackFrame&, const StackFrame&) = default;
};

struct CallStackNode
{
    uint32_t parent = kNoCallStack; // the caller's node; kNoCallStack at the outermost frame
    uint32_t frame = 0; // index into CpuProfile::frames
    friend bool operator==(const CallStackNode&, const CallStackNode&) = default;
};

struct CpuSample
{
    Timestamp time = 0;
    Tid tid;
    uint32_t stack = kNoCallStack; // leaf node; kNoCallStack when no stack was taken
    uint32_t cpu = 0;
    friend bool operator==(const CpuSample&, const CpuSample&) = default;
};

struct ThreadStateInterval
{
    Timestamp start = 0;
    Timestamp end = 0;
    Tid tid;
    ThreadState state = ThreadState::Running;
    uint32_t stack = kNoCallStack; // where the thread left the CPU, for the waiting states
    friend bool operator==(const ThreadStateInterval&, const ThreadStateInterval&) = default;
};

// A stack attached to a host event: the event that starts at `start` on `tid` (a CUDA API
// call longer than the --cudabacktrace threshold, an OS runtime call).
struct EventStack
{
    Tid tid;
    Timestamp start = 0;
    uint32_t stack = kNoCallStack;
    friend bool operator==(const EventStack&, const EventStack&) = default;
};

struct ThreadRange
{
    Tid tid;
    uint32_t first = 0;
    uint32_t count = 0;
};

struct CpuProfile
{
    std::vector<StackFrame> frames;
    std::vector<CallStackNode> stacks; // a parent's index is below its children's
    std::vector<CpuSample> samples; // sorted by (tid, time)
    std::vector<ThreadStateInterval> states; // sorted by (tid, start), disjoint per thread
    std::vector<EventStack> eventStacks; // sorted by (tid, start)
    Timestamp samplingPeriod = 0; // ns between samples of a busy thread; 0 when unknown

    bool empty() const { return samples.empty() && states.empty() && eventStacks.empty(); }

    // Derived by buildIndex(): each thread's slice of `samples` and of `states`.
    std::vector<ThreadRange> sampleThreads;
    std::vector<ThreadRange> stateThreads;
    void buildIndex();

    // One thread's samples with time in [window.start, window.end), and its states overlapping it.
    std::span<const CpuSample> threadSamples(Tid tid, TimeRange window) const;
    std::span<const ThreadStateInterval> threadStates(Tid tid, TimeRange window) const;
    // The stack attached to the event starting at `start` on `tid`, or kNoCallStack.
    uint32_t eventStack(Tid tid, Timestamp start) const;
    // The frames of a stack, leaf first.
    std::vector<uint32_t> framesOf(uint32_t stack) const;

    bool sameContent(const CpuProfile& other) const; // ignoring the derived index
};

const char* threadStateName(ThreadState state); // "Running", "Blocked", ...

} // namespace sightline
