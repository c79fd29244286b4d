#include "model/format/mapped_file.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sightline {

MappedFile::~MappedFile()
{
    if (m_data && m_size) munmap(const_cast<unsigned char*>(m_data), m_size);
}

Status MappedFile::open(const std::string& path, Access access)
{
    const auto failure = [&](const std::string& reason) {
        return Status::failure("Cannot open '" + path + "': " + reason + ".");
    };
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) return failure(std::strerror(errno));
    struct stat st
    {
    };
    if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        ::close(fd);
        return failure(S_ISDIR(st.st_mode) ? "it is a folder" : "it is not a regular file");
    }
    m_size = size_t(st.st_size);
    if (m_size > 0) {
        void* p = mmap(nullptr, m_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            const int error = errno;
            ::close(fd);
            m_size = 0;
            return failure(std::strerror(error));
        }
        if (access == Access::Whole) madvise(p, m_size, MADV_WILLNEED); // else the kernel's own readahead
        m_data = static_cast<const unsigned char*>(p);
    }
    ::close(fd);
    return {};
}

} // namespace sightline
