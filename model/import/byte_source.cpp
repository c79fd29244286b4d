#include "model/import/byte_source.h"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

namespace sightline {
namespace {

constexpr size_t kInputChunk = size_t(1) << 20;

} // namespace

struct ByteSource::Inflater
{
    z_stream stream {};
    bool initialised = false;
    bool memberEnded = false; // the last member ended; more input may start another one

    ~Inflater()
    {
        if (initialised) inflateEnd(&stream);
    }
};

bool isGzipMagic(const unsigned char* bytes, size_t size)
{
    return size >= 2 && bytes[0] == 0x1f && bytes[1] == 0x8b;
}

ByteSource::ByteSource() = default;

ByteSource::~ByteSource()
{
    if (m_fd >= 0) ::close(m_fd);
}

Status ByteSource::open(const std::string& path)
{
    const auto failure = [&](const std::string& reason) {
        return Status::failure("Cannot open '" + path + "': " + reason + ".");
    };
    m_fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (m_fd < 0) return failure(std::strerror(errno));
    struct stat info
    {
    };
    if (fstat(m_fd, &info) != 0 || S_ISDIR(info.st_mode))
        return failure(S_ISDIR(info.st_mode) ? "it is a folder" : std::strerror(errno));
    m_fileSize = uint64_t(info.st_size);
    posix_fadvise(m_fd, 0, 0, POSIX_FADV_SEQUENTIAL);

    unsigned char magic[2] = {};
    const ssize_t got = ::pread(m_fd, magic, sizeof magic, 0);
    m_compressed = got == 2 && isGzipMagic(magic, 2);
    if (m_compressed) {
        m_inflater = std::make_unique<Inflater>();
        // 15 + 16: a gzip wrapper is required, the window is the largest.
        if (inflateInit2(&m_inflater->stream, 15 + 16) != Z_OK)
            return failure("zlib could not be initialised");
        m_inflater->initialised = true;
        m_input.resize(kInputChunk);
    }
    return {};
}

size_t ByteSource::read(char* out, size_t capacity)
{
    if (!m_error.empty() || capacity == 0) return 0;
    return m_compressed ? inflateInto(out, capacity) : readFile(out, capacity);
}

size_t ByteSource::readFile(char* out, size_t capacity)
{
    size_t total = 0;
    while (total < capacity && !m_fileEnded) {
        const ssize_t got = ::read(m_fd, out + total, capacity - total);
        if (got < 0) {
            if (errno == EINTR) continue;
            m_error = std::strerror(errno);
            return 0;
        }
        if (got == 0) m_fileEnded = true;
        total += size_t(got);
        m_fileBytesRead += uint64_t(got);
    }
    return total;
}

size_t ByteSource::inflateInto(char* out, size_t capacity)
{
    z_stream& z = m_inflater->stream;
    z.next_out = reinterpret_cast<Bytef*>(out);
    z.avail_out = uInt(capacity);
    while (z.avail_out > 0) {
        if (z.avail_in == 0 && !m_fileEnded) {
            const size_t got = readFile(reinterpret_cast<char*>(m_input.data()), m_input.size());
            if (!m_error.empty()) return 0;
            z.next_in = m_input.data();
            z.avail_in = uInt(got);
        }
        if (z.avail_in == 0) {
            if (!m_inflater->memberEnded) {
                m_error = "the gzip data ends in the middle (the file is truncated)";
                m_truncated = true;
            }
            break;
        }
        if (m_inflater->memberEnded) {
            // Another gzip member follows the one that ended (concatenated .gz files).
            inflateReset(&z);
            m_inflater->memberEnded = false;
        }
        const int status = inflate(&z, Z_NO_FLUSH);
        if (status == Z_STREAM_END) {
            m_inflater->memberEnded = true;
        } else if (status != Z_OK && status != Z_BUF_ERROR) {
            m_error = std::string("the gzip data is corrupt (") + (z.msg ? z.msg : "zlib error") + ")";
            m_corrupt = true;
            return 0;
        }
    }
    return capacity - z.avail_out;
}

bool ByteSource::provesCorrupt()
{
    if (!m_compressed) return false;
    std::vector<char> discard(kInputChunk);
    while (read(discard.data(), discard.size()) > 0) { }
    return m_corrupt;
}

} // namespace sightline
