#include "collector/inject/spool_writer.h"

#include "collector/inject/clock.h"
#include "collector/inject/interned_strings.h"
#include "collector/inject/nvtx_registry.h"
#include "collector/inject/process_info.h"
#include "collector/inject/records.h"
#include "collector/inject/session.h"
#include "collector/inject/spool_file.h"
#include "collector/inject/thread_buffer.h"

#include <csignal>
#include <cstring>
#include <pthread.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

namespace sightline::inject::writer {

namespace {

constexpr long kPeriodNs = 100 * 1000 * 1000;

pthread_mutex_t g_drainLock = PTHREAD_MUTEX_INITIALIZER;
SpoolFile g_file;
spool::ClockPair g_startPair;
bool g_started = false;
bool g_fileFailed = false;

void appendToFile(void* context, const unsigned char* data, uint32_t bytes)
{
    static_cast<SpoolFile*>(context)->append(data, bytes);
}

void appendString(void* context, uint32_t id, const char* text, uint32_t bytes)
{
    writeTextRecord(*static_cast<SpoolFile*>(context), spool::RecordType::String, id, text, bytes);
}

void appendDomain(void* context, uint32_t domain, const char* name, uint32_t bytes)
{
    writeTextRecord(*static_cast<SpoolFile*>(context), spool::RecordType::NvtxDomain, domain, name, bytes);
}

void writeLoss(spool::LossKind kind, uint64_t count)
{
    if (count == 0) return;
    spool::LossRecord record {};
    record.header = {spool::RecordType::Loss, uint16_t(sizeof(record)), 0};
    record.kind = kind;
    record.count = count;
    g_file.append(&record, sizeof(record));
}

bool anythingPending()
{
    bool pending = false;
    BufferRegistry::forEach([&pending](ThreadBuffer& b) { pending = pending || b.hasPending(); });
    return pending;
}

bool openFile()
{
    if (g_fileFailed) return false;
    if (!g_file.create(g_config.spoolDir, uint32_t(getpid()), uint32_t(getppid()), g_tickSource)) {
        g_fileFailed = true;
        return false;
    }
    writeProcessInfo(g_file, g_config.keepEnv);
    writeClockSync(g_file, g_startPair);
    return true;
}

// Refines the tick rate from the start pair and a new one, and the OS-runtime threshold with it.
void updateTickRate(const spool::ClockPair& now)
{
    const int64_t elapsedNs = now.monotonicNs - g_startPair.monotonicNs;
    if (elapsedNs < 1000000 || now.ticks <= g_startPair.ticks) return;
    const double ticksPerNs = double(now.ticks - g_startPair.ticks) / double(elapsedNs);
    g_ticksPerNs.store(ticksPerNs, std::memory_order_relaxed);
    g_osrtThresholdTicks.store(
        uint64_t(double(g_config.osrtThresholdNs) * ticksPerNs), std::memory_order_relaxed);
}

void drainLocked()
{
    if (!g_file.isOpen() && (!anythingPending() || !openFile())) return;
    strings::emitNew(&appendString, &g_file);
    nvtx::emitNewDomains(&appendDomain, &g_file);
    uint64_t dropped = 0;
    BufferRegistry::forEach([&dropped](ThreadBuffer& b) {
        b.drain(&appendToFile, &g_file);
        dropped += b.takeDropped();
    });
    writeLoss(spool::LossKind::BufferExhausted, dropped);
    writeLoss(spool::LossKind::TextTruncated, g_truncatedTexts.exchange(0, std::memory_order_relaxed));
    const spool::ClockPair now = spool::samplePair(g_tickSource);
    writeClockSync(g_file, now);
    updateTickRate(now);
    BufferRegistry::recycleRetired();
    g_file.flush();
}

void* writerLoop(void*)
{
    t_thread.inTool = 1; // nothing this thread does is the target's activity
    for (;;) {
        waitForData(kPeriodNs); // about every 100 ms, sooner when threads record fast
        // A plain flush hands over every CUPTI buffer whose records are complete. Never force
        // it while the program runs: a forced flush returns operations still in flight on the
        // GPU with zero timestamps, and CUPTI never delivers them again (seen on the H200:
        // whole iterations of copies and kernels lost). Only the final flush is forced.
        runCudaFlushHook(false);
        drain();
    }
    return nullptr;
}

} // namespace

void setStartPair(const spool::ClockPair& pair)
{
    g_startPair = pair;
}

void start()
{
    if (g_started) return;
    ToolScope scope;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&attributes, 1 << 20);
    // The target's signals must never be delivered to our thread: block them all while creating
    // it (the new thread inherits the mask), then restore the caller's.
    sigset_t all, previous;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &previous);
    pthread_t thread;
    g_started = pthread_create(&thread, &attributes, &writerLoop, nullptr) == 0;
    pthread_sigmask(SIG_SETMASK, &previous, nullptr);
    pthread_attr_destroy(&attributes);
    if (g_started) pthread_setname_np(thread, "sightline-wr");
}

void drain()
{
    ToolScope scope;
    pthread_mutex_lock(&g_drainLock);
    drainLocked();
    pthread_mutex_unlock(&g_drainLock);
}

void lockForFork()
{
    pthread_mutex_lock(&g_drainLock);
}
void unlockAfterForkParent()
{
    pthread_mutex_unlock(&g_drainLock);
}

void resetAfterForkChild()
{
    pthread_mutex_init(&g_drainLock, nullptr);
    g_file.forgetAfterFork();
    g_fileFailed = false;
    g_started = false;
    g_startPair = spool::samplePair(g_tickSource);
}

} // namespace sightline::inject::writer
