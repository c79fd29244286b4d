#include "model/import/json/json_stream.h"

#include <algorithm>
#include <cstring>

namespace sightline {
namespace {

bool isJsonSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

// No element of a real trace comes near this; a larger one is refused rather than buffered.
constexpr size_t kMaxElementBytes = size_t(256) << 20;

} // namespace

JsonStream::JsonStream(ByteSource& source, JsonStreamOptions options)
    : m_source(source)
    , m_options(std::move(options))
{
    m_buffer.assign(m_options.chunkBytes + 1, '\0');
}

bool JsonStream::refill()
{
    if (m_sourceEnded) return false;
    if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed)) {
        JsonStreamError error("cancelled");
        error.cancelled = true;
        throw error;
    }
    // Whitespace before the next token means nothing: drop it rather than keep it (a file of
    // nothing but whitespace would otherwise grow the buffer to its own size).
    while (m_begin < m_end && isJsonSpace(m_buffer[m_begin]))
        ++m_begin;
    // Keep the unparsed tail, moved to the front; grow when it fills most of the buffer.
    const size_t kept = m_end - m_begin;
    if (kept > kMaxElementBytes)
        throw JsonStreamError("holds an element larger than " + std::to_string(kMaxElementBytes >> 20)
            + " MB at byte " + std::to_string(m_consumedBefore + m_begin)
            + ", which no trace has; it is damaged or not a trace");
    if (m_begin > 0) {
        std::memmove(m_buffer.data(), m_buffer.data() + m_begin, kept);
        m_consumedBefore += m_begin;
        m_begin = 0;
        m_end = kept;
    }
    const size_t capacity = m_buffer.size() - 1;
    if (capacity - m_end < std::max<size_t>(1, m_options.chunkBytes / 2)) m_buffer.resize(2 * capacity + 1);
    const size_t room = m_buffer.size() - 1 - m_end;
    const size_t got = m_source.read(m_buffer.data() + m_end, room);
    // Bytes read before a read error are parsed first (the events before a cut are kept); the
    // error is raised by the next refill, when nothing more comes.
    if (got == 0 && !m_source.error().empty()) {
        JsonStreamError error("cannot be read: " + m_source.error());
        error.truncated = m_source.truncated();
        throw error;
    }
    m_end += got;
    m_buffer[m_end] = '\0';
    if (got == 0) m_sourceEnded = true;
    if (m_options.progress) m_options.progress(m_source.fileBytesRead(), m_source.fileSize());
    return got > 0;
}

bool JsonStream::atEnd()
{
    for (;;) {
        while (m_begin < m_end && isJsonSpace(m_buffer[m_begin]))
            ++m_begin;
        if (m_begin < m_end) return false;
        if (!refill()) return true;
    }
}

void JsonStream::failTruncated()
{
    JsonStreamError error("ends unexpectedly " + atByte(m_consumedBefore + m_end));
    error.truncated = true;
    throw error;
}

std::string JsonStream::atByte(uint64_t offset) const
{
    return "at byte " + std::to_string(offset) + (m_source.compressed() ? " of the uncompressed data" : "");
}

void JsonStream::failSyntax(const JsonSyntaxError& error)
{
    const uint64_t offset = m_consumedBefore + uint64_t(error.position - m_buffer.data());
    throw JsonStreamError("is not valid JSON " + atByte(offset) + " (" + error.what() + ")");
}

} // namespace sightline
