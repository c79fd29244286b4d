// OS-runtime wrappers for waits on synchronisation objects: mutexes, condition variables,
// read-write locks, semaphores, joins and barriers. Locks are tried first without timing, so
// only contended acquisitions are recorded.
#include "collector/inject/osrt/osrt_timed.h"

#include <pthread.h>
#include <semaphore.h>

using namespace sightline::inject::osrt;

#define SIGHTLINE_EXPORT extern "C" __attribute__((visibility("default")))

namespace {

RealFunction<decltype(pthread_mutex_lock)> realMutexLock {"pthread_mutex_lock"};
RealFunction<decltype(pthread_mutex_trylock)> realMutexTrylock {"pthread_mutex_trylock"};
RealFunction<decltype(pthread_mutex_timedlock)> realMutexTimedlock {"pthread_mutex_timedlock"};
RealFunction<decltype(pthread_cond_wait)> realCondWait {"pthread_cond_wait", kCondVersion};
RealFunction<decltype(pthread_cond_timedwait)> realCondTimedwait {"pthread_cond_timedwait", kCondVersion};
RealFunction<decltype(pthread_cond_clockwait)> realCondClockwait {"pthread_cond_clockwait"};
RealFunction<decltype(pthread_rwlock_rdlock)> realRdlock {"pthread_rwlock_rdlock"};
RealFunction<decltype(pthread_rwlock_wrlock)> realWrlock {"pthread_rwlock_wrlock"};
RealFunction<decltype(pthread_rwlock_tryrdlock)> realTryRdlock {"pthread_rwlock_tryrdlock"};
RealFunction<decltype(pthread_rwlock_trywrlock)> realTryWrlock {"pthread_rwlock_trywrlock"};
RealFunction<decltype(pthread_rwlock_timedrdlock)> realTimedRdlock {"pthread_rwlock_timedrdlock"};
RealFunction<decltype(pthread_rwlock_timedwrlock)> realTimedWrlock {"pthread_rwlock_timedwrlock"};
RealFunction<decltype(pthread_join)> realJoin {"pthread_join"};
RealFunction<decltype(pthread_barrier_wait)> realBarrierWait {"pthread_barrier_wait"};
RealFunction<decltype(sem_wait)> realSemWait {"sem_wait"};
RealFunction<decltype(sem_trywait)> realSemTrywait {"sem_trywait"};
RealFunction<decltype(sem_timedwait)> realSemTimedwait {"sem_timedwait"};
RealFunction<decltype(sem_clockwait)> realSemClockwait {"sem_clockwait"};

// pthread_*trylock report a held lock as EBUSY; sem_trywait as -1 with errno EAGAIN.
bool lockBusy(int result)
{
    return result == EBUSY;
}
bool semaphoreBusy(int result)
{
    return result == -1 && errno == EAGAIN;
}

} // namespace

SIGHTLINE_EXPORT int pthread_mutex_lock(pthread_mutex_t* mutex) noexcept
{
    return timedIfBusy(
        OsFunction::pthread_mutex_lock, realMutexLock.get(), realMutexTrylock.get(), lockBusy, mutex);
}

SIGHTLINE_EXPORT int pthread_mutex_timedlock(pthread_mutex_t* mutex, const struct timespec* until) noexcept
{
    return timed(OsFunction::pthread_mutex_timedlock, realMutexTimedlock.get(), mutex, until);
}

SIGHTLINE_EXPORT int pthread_cond_wait(pthread_cond_t* cond, pthread_mutex_t* mutex)
{
    return timed(OsFunction::pthread_cond_wait, realCondWait.get(), cond, mutex);
}

SIGHTLINE_EXPORT int pthread_cond_timedwait(
    pthread_cond_t* cond, pthread_mutex_t* mutex, const struct timespec* until)
{
    return timed(OsFunction::pthread_cond_timedwait, realCondTimedwait.get(), cond, mutex, until);
}

SIGHTLINE_EXPORT int pthread_cond_clockwait(
    pthread_cond_t* cond, pthread_mutex_t* mutex, clockid_t clock, const struct timespec* until)
{
    return timed(OsFunction::pthread_cond_clockwait, realCondClockwait.get(), cond, mutex, clock, until);
}

SIGHTLINE_EXPORT int pthread_rwlock_rdlock(pthread_rwlock_t* lock) noexcept
{
    return timedIfBusy(
        OsFunction::pthread_rwlock_rdlock, realRdlock.get(), realTryRdlock.get(), lockBusy, lock);
}

SIGHTLINE_EXPORT int pthread_rwlock_wrlock(pthread_rwlock_t* lock) noexcept
{
    return timedIfBusy(
        OsFunction::pthread_rwlock_wrlock, realWrlock.get(), realTryWrlock.get(), lockBusy, lock);
}

SIGHTLINE_EXPORT int pthread_rwlock_timedrdlock(pthread_rwlock_t* lock, const struct timespec* until) noexcept
{
    return timed(OsFunction::pthread_rwlock_timedrdlock, realTimedRdlock.get(), lock, until);
}

SIGHTLINE_EXPORT int pthread_rwlock_timedwrlock(pthread_rwlock_t* lock, const struct timespec* until) noexcept
{
    return timed(OsFunction::pthread_rwlock_timedwrlock, realTimedWrlock.get(), lock, until);
}

SIGHTLINE_EXPORT int pthread_join(pthread_t thread, void** result)
{
    return timed(OsFunction::pthread_join, realJoin.get(), thread, result);
}

SIGHTLINE_EXPORT int pthread_barrier_wait(pthread_barrier_t* barrier) noexcept
{
    return timed(OsFunction::pthread_barrier_wait, realBarrierWait.get(), barrier);
}

SIGHTLINE_EXPORT int sem_wait(sem_t* semaphore)
{
    return timedIfBusy(
        OsFunction::sem_wait, realSemWait.get(), realSemTrywait.get(), semaphoreBusy, semaphore);
}

SIGHTLINE_EXPORT int sem_timedwait(sem_t* semaphore, const struct timespec* until)
{
    return timed(OsFunction::sem_timedwait, realSemTimedwait.get(), semaphore, until);
}

SIGHTLINE_EXPORT int sem_clockwait(sem_t* semaphore, clockid_t clock, const struct timespec* until)
{
    return timed(OsFunction::sem_clockwait, realSemClockwait.get(), semaphore, clock, until);
}
