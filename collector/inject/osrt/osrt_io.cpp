// OS-runtime wrappers for file and device I/O: read/write and their positional, vectored and
// fortified forms, open/close, fsync, ioctl, and the stdio calls that do their I/O inside libc
// (where the read/write wrappers cannot see it).
#include "collector/inject/osrt/osrt_timed.h"

#include <cstdarg>
#include <cstdio>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/uio.h>
#include <unistd.h>

using namespace sightline::inject::osrt;

#define SIGHTLINE_EXPORT extern "C" __attribute__((visibility("default")))

extern "C" ssize_t __read_chk(int fd, void* buffer, size_t count, size_t bufferSize);

namespace {

RealFunction<decltype(read)> realRead {"read"};
RealFunction<decltype(__read_chk)> realReadChk {"__read_chk"};
RealFunction<decltype(write)> realWrite {"write"};
RealFunction<decltype(pread)> realPread {"pread"};
RealFunction<decltype(pread64)> realPread64 {"pread64"};
RealFunction<decltype(pwrite)> realPwrite {"pwrite"};
RealFunction<decltype(pwrite64)> realPwrite64 {"pwrite64"};
RealFunction<decltype(readv)> realReadv {"readv"};
RealFunction<decltype(writev)> realWritev {"writev"};
RealFunction<int(const char*, int, ...)> realOpen {"open"};
RealFunction<int(const char*, int, ...)> realOpen64 {"open64"};
RealFunction<int(int, const char*, int, ...)> realOpenat {"openat"};
RealFunction<int(int, const char*, int, ...)> realOpenat64 {"openat64"};
RealFunction<decltype(close)> realClose {"close"};
RealFunction<decltype(fsync)> realFsync {"fsync"};
RealFunction<decltype(fdatasync)> realFdatasync {"fdatasync"};
RealFunction<int(int, unsigned long, ...)> realIoctl {"ioctl"};
RealFunction<decltype(fopen)> realFopen {"fopen"};
RealFunction<decltype(fopen64)> realFopen64 {"fopen64"};
RealFunction<decltype(fclose)> realFclose {"fclose"};
RealFunction<decltype(fread)> realFread {"fread"};
RealFunction<decltype(fwrite)> realFwrite {"fwrite"};
RealFunction<decltype(fflush)> realFflush {"fflush"};

// open's third argument exists only when the flags create a file.
bool takesMode(int flags)
{
    return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE;
}

mode_t modeArgument(int flags, va_list arguments)
{
    return takesMode(flags) ? mode_t(va_arg(arguments, unsigned int)) : 0;
}

int openWith(int (*real)(const char*, int, ...), const char* path, int flags, mode_t mode)
{
    return timed(OsFunction::open, real, path, flags, mode);
}

int openatWith(int (*real)(int, const char*, int, ...), int dirfd, const char* path, int flags, mode_t mode)
{
    return timed(OsFunction::openat, real, dirfd, path, flags, mode);
}

} // namespace

SIGHTLINE_EXPORT ssize_t read(int fd, void* buffer, size_t count)
{
    return timed(OsFunction::read, realRead.get(), fd, buffer, count);
}

SIGHTLINE_EXPORT ssize_t __read_chk(int fd, void* buffer, size_t count, size_t bufferSize)
{
    return timed(OsFunction::read, realReadChk.get(), fd, buffer, count, bufferSize);
}

SIGHTLINE_EXPORT ssize_t write(int fd, const void* buffer, size_t count)
{
    return timed(OsFunction::write, realWrite.get(), fd, buffer, count);
}

SIGHTLINE_EXPORT ssize_t pread(int fd, void* buffer, size_t count, off_t offset)
{
    return timed(OsFunction::pread, realPread.get(), fd, buffer, count, offset);
}

SIGHTLINE_EXPORT ssize_t pread64(int fd, void* buffer, size_t count, off64_t offset)
{
    return timed(OsFunction::pread, realPread64.get(), fd, buffer, count, offset);
}

SIGHTLINE_EXPORT ssize_t pwrite(int fd, const void* buffer, size_t count, off_t offset)
{
    return timed(OsFunction::pwrite, realPwrite.get(), fd, buffer, count, offset);
}

SIGHTLINE_EXPORT ssize_t pwrite64(int fd, const void* buffer, size_t count, off64_t offset)
{
    return timed(OsFunction::pwrite, realPwrite64.get(), fd, buffer, count, offset);
}

SIGHTLINE_EXPORT ssize_t readv(int fd, const struct iovec* vectors, int count)
{
    return timed(OsFunction::readv, realReadv.get(), fd, vectors, count);
}

SIGHTLINE_EXPORT ssize_t writev(int fd, const struct iovec* vectors, int count)
{
    return timed(OsFunction::writev, realWritev.get(), fd, vectors, count);
}

SIGHTLINE_EXPORT int open(const char* path, int flags, ...)
{
    va_list arguments;
    va_start(arguments, flags);
    const mode_t mode = modeArgument(flags, arguments);
    va_end(arguments);
    return openWith(realOpen.get(), path, flags, mode);
}

SIGHTLINE_EXPORT int open64(const char* path, int flags, ...)
{
    va_list arguments;
    va_start(arguments, flags);
    const mode_t mode = modeArgument(flags, arguments);
    va_end(arguments);
    return openWith(realOpen64.get(), path, flags, mode);
}

SIGHTLINE_EXPORT int openat(int dirfd, const char* path, int flags, ...)
{
    va_list arguments;
    va_start(arguments, flags);
    const mode_t mode = modeArgument(flags, arguments);
    va_end(arguments);
    return openatWith(realOpenat.get(), dirfd, path, flags, mode);
}

SIGHTLINE_EXPORT int openat64(int dirfd, const char* path, int flags, ...)
{
    va_list arguments;
    va_start(arguments, flags);
    const mode_t mode = modeArgument(flags, arguments);
    va_end(arguments);
    return openatWith(realOpenat64.get(), dirfd, path, flags, mode);
}

SIGHTLINE_EXPORT int close(int fd)
{
    return timed(OsFunction::close, realClose.get(), fd);
}
SIGHTLINE_EXPORT int fsync(int fd)
{
    return timed(OsFunction::fsync, realFsync.get(), fd);
}
SIGHTLINE_EXPORT int fdatasync(int fd)
{
    return timed(OsFunction::fdatasync, realFdatasync.get(), fd);
}

SIGHTLINE_EXPORT int ioctl(int fd, unsigned long request, ...) noexcept
{
    va_list arguments;
    va_start(arguments, request);
    void* argument = va_arg(arguments, void*);
    va_end(arguments);
    return timed(OsFunction::ioctl, realIoctl.get(), fd, request, argument);
}

SIGHTLINE_EXPORT FILE* fopen(const char* path, const char* mode)
{
    return timed(OsFunction::fopen, realFopen.get(), path, mode);
}

SIGHTLINE_EXPORT FILE* fopen64(const char* path, const char* mode)
{
    return timed(OsFunction::fopen, realFopen64.get(), path, mode);
}

SIGHTLINE_EXPORT int fclose(FILE* stream)
{
    return timed(OsFunction::fclose, realFclose.get(), stream);
}

SIGHTLINE_EXPORT size_t fread(void* buffer, size_t size, size_t count, FILE* stream)
{
    return timed(OsFunction::fread, realFread.get(), buffer, size, count, stream);
}

SIGHTLINE_EXPORT size_t fwrite(const void* buffer, size_t size, size_t count, FILE* stream)
{
    return timed(OsFunction::fwrite, realFwrite.get(), buffer, size, count, stream);
}

SIGHTLINE_EXPORT int fflush(FILE* stream)
{
    return timed(OsFunction::fflush, realFflush.get(), stream);
}
