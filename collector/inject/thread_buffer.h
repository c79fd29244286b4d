// Per-thread record buffers. Each thread that records owns one ThreadBuffer: a chain of
// fixed-size chunks it appends spool records to. One producer (the owning thread) and one
// consumer (the writer, under the drain lock) share a buffer without locks:
//  - the producer writes a record past `committed`, then publishes it with a release store;
//  - when a chunk is full it finalises `committed`, links a fresh chunk (one the writer handed
//    back, or a new mmap) through `next`, and continues there; every few chunks it wakes the
//    writer, so a thread recording fast reuses warm memory instead of faulting in new pages;
//  - the writer reads up to `committed` (acquire), and hands a chunk back to its thread's spare
//    slots once `next` is set and it has read everything in it.
// Appending is lock-free, malloc-free and signal-safe (a nested record from a signal handler
// is refused by the ToolScope guard, not corrupted). Buffers are never freed: a buffer of an
// exited thread is drained, then reused by the next new thread.
#pragma once

#include "collector/inject/thread_state.h"

#include <atomic>
#include <cstdint>

namespace sightline::inject {

struct Chunk
{
    std::atomic<uint32_t> committed; // bytes published by the producer
    uint32_t capacity; // bytes available at data()
    std::atomic<Chunk*> next; // set once the producer moved on; `committed` is final then
    uint64_t padding[6];

    unsigned char* data() { return reinterpret_cast<unsigned char*>(this + 1); }
};
static_assert(sizeof(Chunk) == 64);

enum class BufferState : uint32_t { Owned = 0, Retiring = 1, Free = 2 };

using DrainSink = void (*)(void* context, const unsigned char* data, uint32_t bytes);

class ThreadBuffer
{
public:
    // ---- producer side: only the owning thread ----

    // Space for a record of `bytes` (a multiple of 8), or null when no memory is left (the
    // loss is counted). Follow with commit(bytes).
    void* reserve(uint32_t bytes)
    {
        if (m_writePos + bytes > m_tail->capacity) [[unlikely]] {
            if (!grow(bytes)) return nullptr;
        }
        return m_tail->data() + m_writePos;
    }
    void commit(uint32_t bytes)
    {
        m_writePos += bytes;
        m_tail->committed.store(m_writePos, std::memory_order_release);
    }
    uint32_t tid() const { return m_tid; }
    // Ids for NVTX start/end ranges: unique in the process without a shared counter.
    uint64_t nextRangeId() { return (uint64_t(m_index + 1) << 40) | ++m_rangeCounter; }

    // ---- consumer side: the writer, under the drain lock ----

    // Hands every committed byte (whole records) to `sink` and recycles finished chunks.
    // Returns the number of bytes handed over.
    uint64_t drain(DrainSink sink, void* context);
    bool hasPending() const;
    // Records this buffer could not take since the last call.
    uint64_t takeDropped() { return m_dropped.exchange(0, std::memory_order_relaxed); }

private:
    friend class BufferRegistry;
    bool grow(uint32_t bytes);
    Chunk* takeSpare();
    void giveSpare(Chunk* chunk);

    // producer
    Chunk* m_tail = nullptr;
    uint32_t m_writePos = 0;
    uint32_t m_tid = 0;
    uint64_t m_rangeCounter = 0;
    // consumer
    Chunk* m_head = nullptr;
    uint32_t m_readPos = 0;
    // shared
    static constexpr int kSpareSlots = 16;
    std::atomic<Chunk*> m_spares[kSpareSlots] = {}; // the writer fills empty slots, the owner empties them
    uint32_t m_chunksSinceWake = 0;
    std::atomic<uint64_t> m_dropped {0};
    std::atomic<BufferState> m_state {BufferState::Owned};
    uint32_t m_index = 0;
    ThreadBuffer* m_nextInRegistry = nullptr; // immutable once published
};

// Lets the writer sleep until producers have filled a few chunks, or for `timeoutNs`.
void waitForData(long timeoutNs);

// The process's buffers, in one lock-free list.
class BufferRegistry
{
public:
    // Called once from the library constructor (creates the thread-exit key).
    static void initialize();
    // The calling thread's buffer, claimed on first use; null when out of memory.
    static ThreadBuffer* current()
    {
        ThreadBuffer* buffer = t_thread.buffer;
        return buffer ? buffer : claimForCurrentThread();
    }
    template <class Fn> static void forEach(Fn&& fn)
    {
        for (ThreadBuffer* b = s_head.load(std::memory_order_acquire); b; b = b->m_nextInRegistry)
            fn(*b);
    }
    // Writer: after draining, mark buffers of exited threads free for reuse.
    static void recycleRetired();
    // In a fork child: the other threads are gone and the parent writes what was pending.
    static void resetAfterFork(uint32_t currentTid);

private:
    static ThreadBuffer* claimForCurrentThread();
    static void onThreadExit(void* buffer);
    static inline std::atomic<ThreadBuffer*> s_head {nullptr};
    static inline std::atomic<uint32_t> s_count {0};
};

} // namespace sightline::inject
