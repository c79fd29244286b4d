#include "collector/inject/thread_buffer.h"

#include "collector/inject/records.h"

#include <cstring>
#include <linux/futex.h>
#include <new>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace sightline::inject {

__thread ThreadState t_thread SIGHTLINE_TLS;

namespace {

constexpr uint32_t kChunkBytes = 256 * 1024;
// A producer wakes the writer after filling this many chunks (1 MiB of records).
constexpr uint32_t kChunksPerWake = 4;
// Beyond this much unwritten data in one process, records are dropped and counted.
constexpr uint64_t kMaxMappedBytes = uint64_t(1) << 30;

std::atomic<uint64_t> g_mappedBytes {0};
std::atomic<uint32_t> g_wakeWord {0}; // futex: bumped by producers that filled chunks
pthread_key_t g_exitKey;
bool g_exitKeyValid = false;

Chunk* mapChunk()
{
    if (g_mappedBytes.fetch_add(kChunkBytes, std::memory_order_relaxed) + kChunkBytes > kMaxMappedBytes) {
        g_mappedBytes.fetch_sub(kChunkBytes, std::memory_order_relaxed);
        return nullptr;
    }
    void* memory = mmap(nullptr, kChunkBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (memory == MAP_FAILED) {
        g_mappedBytes.fetch_sub(kChunkBytes, std::memory_order_relaxed);
        return nullptr;
    }
    auto* chunk = new (memory) Chunk {};
    chunk->capacity = kChunkBytes - sizeof(Chunk);
    return chunk;
}

void unmapChunk(Chunk* chunk)
{
    munmap(chunk, kChunkBytes);
    g_mappedBytes.fetch_sub(kChunkBytes, std::memory_order_relaxed);
}

uint32_t currentTid()
{
    return uint32_t(syscall(SYS_gettid));
}

void emitOsThreadName(ThreadBuffer& buffer)
{
    char name[17] = {};
    if (prctl(PR_GET_NAME, name, 0, 0, 0) == 0 && name[0])
        emitThreadName(buffer, buffer.tid(), spool::ThreadNameSource::Os, name, uint32_t(strlen(name)));
}

void wakeWriter()
{
    g_wakeWord.fetch_add(1, std::memory_order_release);
    syscall(SYS_futex, &g_wakeWord, FUTEX_WAKE_PRIVATE, 1, nullptr, nullptr, 0);
}

} // namespace

void waitForData(long timeoutNs)
{
    const uint32_t seen = g_wakeWord.load(std::memory_order_acquire);
    timespec timeout {0, timeoutNs};
    syscall(SYS_futex, &g_wakeWord, FUTEX_WAIT_PRIVATE, seen, &timeout, nullptr, 0);
}

Chunk* ThreadBuffer::takeSpare()
{
    for (auto& slot : m_spares)
        if (slot.load(std::memory_order_relaxed))
            if (Chunk* chunk = slot.exchange(nullptr, std::memory_order_acquire)) return chunk;
    return nullptr;
}

void ThreadBuffer::giveSpare(Chunk* chunk)
{
    for (auto& slot : m_spares) {
        Chunk* expected = nullptr;
        if (slot.compare_exchange_strong(expected, chunk, std::memory_order_release)) return;
    }
    unmapChunk(chunk);
}

bool ThreadBuffer::grow(uint32_t bytes)
{
    Chunk* fresh = takeSpare();
    if (!fresh) fresh = mapChunk();
    if (!fresh || bytes > fresh->capacity) {
        if (fresh) unmapChunk(fresh);
        m_dropped.fetch_add(1, std::memory_order_relaxed);
        return false;
    }
    fresh->committed.store(0, std::memory_order_relaxed);
    fresh->next.store(nullptr, std::memory_order_relaxed);
    // `committed` of the old tail is already final: commit() stores it after every record.
    m_tail->next.store(fresh, std::memory_order_release);
    m_tail = fresh;
    m_writePos = 0;
    if (++m_chunksSinceWake >= kChunksPerWake) {
        m_chunksSinceWake = 0;
        wakeWriter();
    }
    return true;
}

uint64_t ThreadBuffer::drain(DrainSink sink, void* context)
{
    uint64_t handed = 0;
    for (;;) {
        Chunk* chunk = m_head;
        // Load `next` first: once it is set, the `committed` read after it is final.
        Chunk* next = chunk->next.load(std::memory_order_acquire);
        const uint32_t end = chunk->committed.load(std::memory_order_acquire);
        if (end > m_readPos) {
            sink(context, chunk->data() + m_readPos, end - m_readPos);
            handed += end - m_readPos;
            m_readPos = end;
        }
        if (!next) return handed;
        m_head = next;
        m_readPos = 0;
        giveSpare(chunk);
    }
}

bool ThreadBuffer::hasPending() const
{
    return m_head->next.load(std::memory_order_acquire) != nullptr
        || m_head->committed.load(std::memory_order_acquire) > m_readPos;
}

void BufferRegistry::initialize()
{
    if (!g_exitKeyValid) g_exitKeyValid = pthread_key_create(&g_exitKey, &BufferRegistry::onThreadExit) == 0;
}

ThreadBuffer* BufferRegistry::claimForCurrentThread()
{
    ThreadBuffer* buffer = nullptr;
    for (ThreadBuffer* b = s_head.load(std::memory_order_acquire); b && !buffer; b = b->m_nextInRegistry) {
        BufferState expected = BufferState::Free;
        if (b->m_state.compare_exchange_strong(expected, BufferState::Owned, std::memory_order_acq_rel))
            buffer = b;
    }
    if (!buffer) {
        void* memory
            = mmap(nullptr, sizeof(ThreadBuffer), PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (memory == MAP_FAILED) return nullptr;
        Chunk* first = mapChunk();
        if (!first) {
            munmap(memory, sizeof(ThreadBuffer));
            return nullptr;
        }
        buffer = new (memory) ThreadBuffer;
        buffer->m_tail = buffer->m_head = first;
        buffer->m_index = s_count.fetch_add(1, std::memory_order_relaxed);
        ThreadBuffer* head = s_head.load(std::memory_order_relaxed);
        do {
            buffer->m_nextInRegistry = head;
        } while (!s_head.compare_exchange_weak(
            head, buffer, std::memory_order_release, std::memory_order_relaxed));
    }
    buffer->m_tid = currentTid();
    t_thread.buffer = buffer;
    if (g_exitKeyValid) pthread_setspecific(g_exitKey, buffer);
    emitOsThreadName(*buffer);
    return buffer;
}

void BufferRegistry::onThreadExit(void* buffer)
{
    t_thread.buffer = nullptr;
    static_cast<ThreadBuffer*>(buffer)->m_state.store(BufferState::Retiring, std::memory_order_release);
}

void BufferRegistry::recycleRetired()
{
    forEach([](ThreadBuffer& b) {
        if (b.m_state.load(std::memory_order_acquire) == BufferState::Retiring && !b.hasPending())
            b.m_state.store(BufferState::Free, std::memory_order_release);
    });
}

void BufferRegistry::resetAfterFork(uint32_t tid)
{
    forEach([tid](ThreadBuffer& b) {
        // Drop what the parent has not written yet: the parent's writer writes it.
        while (Chunk* next = b.m_head->next.load(std::memory_order_relaxed)) {
            Chunk* done = b.m_head;
            b.m_head = next;
            unmapChunk(done);
        }
        const uint32_t committed = b.m_tail->committed.load(std::memory_order_relaxed);
        b.m_readPos = committed;
        b.m_writePos = committed;
        if (&b == t_thread.buffer) {
            b.m_tid = tid;
            b.m_state.store(BufferState::Owned, std::memory_order_relaxed);
        } else {
            b.m_state.store(BufferState::Free, std::memory_order_relaxed);
        }
    });
}

} // namespace sightline::inject
