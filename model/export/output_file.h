// Output files for the exporters. A StagedFile writes its target through a temporary sibling
// (same folder, so the final rename is atomic) and renames it into place on commit(); until
// then the target is untouched, and the temporary is removed when the export fails or is
// abandoned. TextOutput adds buffered sequential writing for the text formats (JSON, CSV).
// All errors are one sentence naming the target file.
#pragma once

#include "model/common/result.h"

#include <cstddef>
#include <string>
#include <string_view>

namespace sightline {

class StagedFile
{
public:
    StagedFile() = default;
    StagedFile(const StagedFile&) = delete;
    StagedFile& operator=(const StagedFile&) = delete;
    ~StagedFile();

    // Checks that the target can be written (its folder exists, it is not a folder, it does not
    // exist unless `overwrite`) and creates the empty temporary.
    Status open(const std::string& target, bool overwrite);
    // Renames the temporary over the target; on failure the temporary is removed.
    Status commit();
    // Removes the temporary, leaving the target as it was.
    void discard();

    const std::string& target() const { return m_target; }
    const std::string& tempPath() const { return m_temp; }
    bool isOpen() const { return !m_temp.empty(); }

private:
    std::string m_target;
    std::string m_temp;
};

// The error sentence for a failed write to `target`, from errno.
std::string writeErrorMessage(const std::string& target, int errorNumber);

class TextOutput
{
public:
    TextOutput() = default;
    TextOutput(const TextOutput&) = delete;
    TextOutput& operator=(const TextOutput&) = delete;
    ~TextOutput();

    Status open(const std::string& target, bool overwrite);

    // Callers append text here and then call flushIfFull(); the buffer never grows much past
    // kFlushSize, so memory stays bounded whatever the output size.
    std::string& buffer() { return m_buffer; }
    void write(std::string_view text)
    {
        m_buffer.append(text);
        flushIfFull();
    }
    void flushIfFull()
    {
        if (m_buffer.size() >= kFlushSize) flush();
    }

    // Flushes, closes and renames into place; fails with the first error met while writing.
    Status finish();

private:
    static constexpr size_t kFlushSize = 1 << 20;
    void flush();
    void closeFile();

    StagedFile m_staged;
    int m_fd = -1;
    std::string m_buffer;
    std::string m_error; // the first write error; later writes are skipped
};

} // namespace sightline
