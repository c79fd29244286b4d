// The spool file of this process: created lazily on the first drain that has data (idle
// processes leave no file), named `<dir>/<pid>.spool` (or `<pid>.<n>.spool` when an earlier
// image of the same pid, before an exec, already wrote one). Writes go through a staging
// buffer and raw write(2) system calls. Before each write the descriptor is checked to still
// be our file: a target that closes descriptors it does not own must not get our bytes in
// one of its files; we reopen ours instead.
#pragma once

#include "collector/spool/spool_format.h"

#include <cstddef>
#include <cstdint>
#include <sys/types.h>

namespace sightline::inject {

class SpoolFile
{
public:
    bool isOpen() const { return m_fd >= 0; }
    // Creates the file and writes the FileHeader. False when the folder is not writable.
    bool create(const char* dir, uint32_t pid, uint32_t ppid, spool::TickSource ticks);
    void append(const void* data, size_t bytes);
    void flush();
    // In a fork child: the descriptor is the parent's file; close our copy and start over.
    void forgetAfterFork();
    uint64_t failedBytes() const { return m_failedBytes; }

private:
    bool descriptorStillOurs();
    void writeAll(const unsigned char* data, size_t bytes);

    int m_fd = -1;
    dev_t m_device = 0;
    ino_t m_inode = 0;
    char m_path[1200] = {};
    size_t m_staged = 0;
    uint64_t m_failedBytes = 0;
    static constexpr size_t kStagingBytes = 1 << 20;
    unsigned char m_staging[kStagingBytes];
};

} // namespace sightline::inject
