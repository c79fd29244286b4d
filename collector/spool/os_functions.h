// The OS-runtime functions the injection library wraps, as one list shared by the wrappers and
// the launcher. An OsCallRecord stores the index into this list. The numbering is part of the
// spool format: append new functions at the end only.
#pragma once

#include <cstdint>
#include <string_view>

// clang-format off
#define SIGHTLINE_OS_FUNCTIONS(X)                                                                            \
    X(pthread_mutex_lock) X(pthread_mutex_timedlock) X(pthread_cond_wait) X(pthread_cond_timedwait)          \
    X(pthread_cond_clockwait) X(pthread_rwlock_rdlock) X(pthread_rwlock_wrlock)                             \
    X(pthread_rwlock_timedrdlock) X(pthread_rwlock_timedwrlock) X(pthread_join) X(pthread_barrier_wait)    \
    X(sem_wait) X(sem_timedwait) X(sem_clockwait) X(sleep) X(usleep) X(nanosleep) X(clock_nanosleep)        \
    X(poll) X(ppoll) X(select) X(pselect) X(epoll_wait) X(epoll_pwait) X(read) X(write) X(pread)            \
    X(pwrite) X(readv) X(writev) X(open) X(openat) X(close) X(fsync) X(fdatasync) X(ioctl) X(connect)        \
    X(accept) X(accept4) X(send) X(sendto) X(sendmsg) X(recv) X(recvfrom) X(recvmsg) X(fork) X(wait)         \
    X(waitpid) X(fopen) X(fclose) X(fread) X(fwrite) X(fflush)
// clang-format on

namespace sightline::spool {

enum class OsFunction : uint16_t {
#define SIGHTLINE_OS_ENUM(name) name,
    SIGHTLINE_OS_FUNCTIONS(SIGHTLINE_OS_ENUM)
#undef SIGHTLINE_OS_ENUM
        Count
};

inline constexpr const char* kOsFunctionNames[] = {
#define SIGHTLINE_OS_NAME(name) #name,
    SIGHTLINE_OS_FUNCTIONS(SIGHTLINE_OS_NAME)
#undef SIGHTLINE_OS_NAME
};
static_assert(sizeof(kOsFunctionNames) / sizeof(kOsFunctionNames[0]) == size_t(OsFunction::Count));

constexpr std::string_view osFunctionName(uint16_t index)
{
    return index < uint16_t(OsFunction::Count) ? kOsFunctionNames[index] : std::string_view("unknown");
}

} // namespace sightline::spool
