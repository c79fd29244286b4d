#include "collector/inject/cupti/activity_buffers.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <sys/mman.h>

namespace sightline::inject::cupti {

namespace {

constexpr size_t kPooledBuffers = 8; // kept for reuse at most
constexpr size_t kReadyBuffers = 2; // kept zeroed and faulted in at least, when memory allows

struct BufferPool
{
    std::mutex lock;
    uint8_t* free[kPooledBuffers] = {};
    size_t count = 0;
    bool weZero = false; // CUPTI accepted that buffers come zeroed
};

BufferPool& pool()
{
    static BufferPool* instance = new BufferPool;
    return *instance;
}

// Anonymous pages read as zero; MAP_POPULATE faults them in here rather than where CUPTI writes.
uint8_t* mapZeroedBuffer()
{
    void* memory = mmap(nullptr, kActivityBufferBytes, PROT_READ | PROT_WRITE,
        MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
    return memory == MAP_FAILED ? nullptr : static_cast<uint8_t*>(memory);
}

bool pushFree(uint8_t* buffer)
{
    BufferPool& p = pool();
    std::lock_guard<std::mutex> guard(p.lock);
    if (p.count == kPooledBuffers) return false;
    p.free[p.count++] = buffer;
    return true;
}

uint8_t* popFree()
{
    BufferPool& p = pool();
    std::lock_guard<std::mutex> guard(p.lock);
    return p.count > 0 ? p.free[--p.count] : nullptr;
}

size_t freeCount()
{
    BufferPool& p = pool();
    std::lock_guard<std::mutex> guard(p.lock);
    return p.count;
}

void topUp()
{
    while (freeCount() < kReadyBuffers) {
        uint8_t* buffer = mapZeroedBuffer();
        if (!buffer) return;
        if (!pushFree(buffer)) {
            munmap(buffer, kActivityBufferBytes);
            return;
        }
    }
}

} // namespace

void prepareActivityBuffers(CuptiState& s)
{
    const char* zeroing = getenv("SIGHTLINE_CUPTI_ZEROING");
    const bool cuptiZeroes = zeroing && strcmp(zeroing, "cupti") == 0;
    if (!cuptiZeroes && s.api.activitySetAttribute) {
        uint8_t zeroed = 1;
        size_t bytes = sizeof(zeroed);
        pool().weZero
            = s.api.activitySetAttribute(CUPTI_ACTIVITY_ATTR_ZEROED_OUT_ACTIVITY_BUFFER, &bytes, &zeroed)
            == CUPTI_SUCCESS;
    }
    topUp();
}

uint8_t* takeActivityBuffer()
{
    if (uint8_t* buffer = popFree()) return buffer;
    return mapZeroedBuffer();
}

void returnActivityBuffer(uint8_t* buffer, size_t usedBytes)
{
    if (pool().weZero) memset(buffer, 0, std::min(usedBytes, kActivityBufferBytes));
    if (!pushFree(buffer)) munmap(buffer, kActivityBufferBytes);
    topUp();
}

} // namespace sightline::inject::cupti
