#include "model/export/output_file.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>

namespace sightline {
namespace {

namespace fs = std::filesystem;

std::atomic<unsigned> g_tempCounter {0};

std::string inQuotes(const std::string& path)
{
    return "'" + path + "'";
}

// Creates a fresh temporary next to `target`; returns its path, or "" with errno set.
std::string createTemporary(const std::string& target)
{
    for (int attempt = 0; attempt < 100; ++attempt) {
        std::string candidate = target + ".tmp-" + std::to_string(::getpid()) + "-"
            + std::to_string(g_tempCounter.fetch_add(1));
        int fd = ::open(candidate.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0) {
            ::close(fd);
            return candidate;
        }
        if (errno != EEXIST) return {};
    }
    return {};
}

} // namespace

std::string writeErrorMessage(const std::string& target, int errorNumber)
{
    return "Cannot write " + inQuotes(target) + ": " + std::strerror(errorNumber)
        + "; check the free disk space and the folder's permissions.";
}

StagedFile::~StagedFile()
{
    discard();
}

Status StagedFile::open(const std::string& target, bool overwrite)
{
    discard();
    if (target.empty()) return Status::failure("No output file was given; name the file to write.");
    std::error_code ec;
    const fs::path path(target);
    const fs::path folder = path.has_parent_path() ? path.parent_path() : fs::path(".");
    if (!fs::is_directory(folder, ec))
        return Status::failure("Cannot write " + inQuotes(target) + ": the folder "
            + inQuotes(folder.string()) + " does not exist; create it or choose another output path.");
    if (fs::is_directory(path, ec))
        return Status::failure(
            "Cannot write " + inQuotes(target) + ": it is a folder; give a file name instead.");
    if (fs::exists(path, ec) && !overwrite)
        return Status::failure("Cannot write " + inQuotes(target)
            + ": the file already exists; choose another name or allow overwriting (--force).");
    m_temp = createTemporary(target);
    if (m_temp.empty()) return Status::failure(writeErrorMessage(target, errno));
    m_target = target;
    return {};
}

Status StagedFile::commit()
{
    if (m_temp.empty())
        return Status::failure("Cannot write " + inQuotes(m_target) + ": the output was not opened.");
    if (std::rename(m_temp.c_str(), m_target.c_str()) != 0) {
        const int error = errno;
        discard();
        return Status::failure(writeErrorMessage(m_target, error));
    }
    m_temp.clear();
    return {};
}

void StagedFile::discard()
{
    if (!m_temp.empty()) ::unlink(m_temp.c_str());
    m_temp.clear();
}

TextOutput::~TextOutput()
{
    closeFile();
}

Status TextOutput::open(const std::string& target, bool overwrite)
{
    if (Status staged = m_staged.open(target, overwrite); !staged) return staged;
    m_fd = ::open(m_staged.tempPath().c_str(), O_WRONLY | O_TRUNC | O_CLOEXEC);
    if (m_fd < 0) {
        const int error = errno;
        m_staged.discard();
        return Status::failure(writeErrorMessage(target, error));
    }
    m_buffer.reserve(kFlushSize + (kFlushSize >> 2));
    return {};
}

void TextOutput::flush()
{
    size_t done = 0;
    while (m_error.empty() && done < m_buffer.size()) {
        const ssize_t n = ::write(m_fd, m_buffer.data() + done, m_buffer.size() - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0)
            m_error = writeErrorMessage(m_staged.target(), n < 0 ? errno : EIO);
        else
            done += size_t(n);
    }
    m_buffer.clear();
}

void TextOutput::closeFile()
{
    if (m_fd >= 0) ::close(m_fd);
    m_fd = -1;
}

Status TextOutput::finish()
{
    if (m_fd < 0)
        return Status::failure(
            "Cannot write " + inQuotes(m_staged.target()) + ": the output was not opened.");
    flush();
    const int closed = ::close(m_fd);
    m_fd = -1;
    if (closed != 0 && m_error.empty()) m_error = writeErrorMessage(m_staged.target(), errno);
    if (!m_error.empty()) {
        m_staged.discard();
        return Status::failure(m_error);
    }
    return m_staged.commit();
}

} // namespace sightline
