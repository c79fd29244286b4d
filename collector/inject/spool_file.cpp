#include "collector/inject/spool_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace sightline::inject {

namespace {

// Descriptors at or above this are unlikely to collide with ones a program picks itself.
constexpr int kHighDescriptor = 700;

int openRaw(const char* path, int flags, mode_t mode)
{
    return int(syscall(SYS_openat, AT_FDCWD, path, flags, mode));
}

int moveToHighDescriptor(int fd)
{
    const int high = fcntl(fd, F_DUPFD_CLOEXEC, kHighDescriptor);
    if (high < 0) return fd;
    syscall(SYS_close, fd);
    return high;
}

} // namespace

bool SpoolFile::create(const char* dir, uint32_t pid, uint32_t ppid, spool::TickSource ticks)
{
    for (int attempt = 0; attempt < 1000 && m_fd < 0; ++attempt) {
        if (attempt == 0)
            snprintf(m_path, sizeof(m_path), "%s/%u%s", dir, pid, spool::kFileSuffix);
        else
            snprintf(m_path, sizeof(m_path), "%s/%u.%d%s", dir, pid, attempt, spool::kFileSuffix);
        m_fd = openRaw(m_path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
        if (m_fd < 0 && errno != EEXIST) return false;
    }
    if (m_fd < 0) return false;
    m_fd = moveToHighDescriptor(m_fd);
    struct stat st;
    if (fstat(m_fd, &st) == 0) {
        m_device = st.st_dev;
        m_inode = st.st_ino;
    }
    const spool::FileHeader header = spool::makeFileHeader(pid, ppid, ticks);
    append(&header, sizeof(header));
    return true;
}

void SpoolFile::append(const void* data, size_t bytes)
{
    if (m_fd < 0) return;
    // Large blocks (whole chunks of a busy thread) go straight from the chunk to the file.
    if (m_staged + bytes > kStagingBytes || bytes >= kStagingBytes / 4) flush();
    if (bytes >= kStagingBytes / 4) {
        writeAll(static_cast<const unsigned char*>(data), bytes);
        return;
    }
    memcpy(m_staging + m_staged, data, bytes);
    m_staged += bytes;
}

void SpoolFile::flush()
{
    if (m_fd < 0 || m_staged == 0) return;
    writeAll(m_staging, m_staged);
    m_staged = 0;
}

bool SpoolFile::descriptorStillOurs()
{
    struct stat st;
    if (fstat(m_fd, &st) == 0 && st.st_dev == m_device && st.st_ino == m_inode) return true;
    // Ours was closed (and maybe the number reused): reopen our file, leave theirs alone.
    const int fd = openRaw(m_path, O_WRONLY | O_APPEND | O_CLOEXEC, 0);
    if (fd < 0) {
        m_fd = -1;
        return false;
    }
    m_fd = moveToHighDescriptor(fd);
    return true;
}

void SpoolFile::writeAll(const unsigned char* data, size_t bytes)
{
    if (!descriptorStillOurs()) {
        m_failedBytes += bytes;
        return;
    }
    while (bytes > 0) {
        const ssize_t written = syscall(SYS_write, m_fd, data, bytes);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) {
            m_failedBytes += bytes;
            return;
        }
        data += written;
        bytes -= size_t(written);
    }
}

void SpoolFile::forgetAfterFork()
{
    if (m_fd >= 0) syscall(SYS_close, m_fd);
    m_fd = -1;
    m_staged = 0;
}

} // namespace sightline::inject
