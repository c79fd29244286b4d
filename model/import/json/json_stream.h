// Streams a JSON document from a ByteSource through a bounded buffer, one element at a time.
// parse(f) runs f on a JsonCursor over the buffered text; when f reaches the end of the buffer
// (JsonNeedMore), the unconsumed text is moved to the front, more is read, and f runs again on
// the same element from its start. So f must only commit its results once it has returned
// normally, and the buffer only ever holds the current element plus one chunk: memory does not
// grow with the file (an element larger than the buffer makes the buffer grow to hold it).
// Every failure (syntax, truncation, I/O, cancel) is thrown as JsonStreamError with a sentence
// part that names the byte offset.
#pragma once

#include "model/import/byte_source.h"
#include "model/import/json/json_cursor.h"

#include <atomic>
#include <functional>
#include <vector>

namespace sightline {

class JsonStreamError : public std::runtime_error
{
public:
    using std::runtime_error::runtime_error;
    bool cancelled = false;
    bool truncated = false; // the document stops early: the file was cut short
};

struct JsonStreamOptions
{
    size_t chunkBytes = size_t(4) << 20;
    std::function<void(uint64_t done, uint64_t total)> progress; // file bytes
    const std::atomic<bool>* cancel = nullptr;
};

class JsonStream
{
public:
    JsonStream(ByteSource& source, JsonStreamOptions options);

    template <class F> auto parse(F&& f)
    {
        for (;;) {
            JsonCursor cursor(m_buffer.data() + m_begin, m_buffer.data() + m_end);
            try {
                if constexpr (std::is_void_v<decltype(f(cursor))>) {
                    f(cursor);
                    m_begin = size_t(cursor.position() - m_buffer.data());
                    return;
                } else {
                    auto result = f(cursor);
                    m_begin = size_t(cursor.position() - m_buffer.data());
                    return result;
                }
            } catch (const JsonNeedMore&) {
                if (!refill()) failTruncated();
            } catch (const JsonSyntaxError& error) {
                failSyntax(error);
            }
        }
    }

    // True when only whitespace is left.
    bool atEnd();
    // Bytes of content consumed so far (the offset of the next unparsed byte).
    uint64_t contentOffset() const { return m_consumedBefore + m_begin; }

private:
    bool refill();
    [[noreturn]] void failTruncated();
    [[noreturn]] void failSyntax(const JsonSyntaxError& error);
    // "at byte N", of the uncompressed data when the file is compressed.
    std::string atByte(uint64_t offset) const;

    ByteSource& m_source;
    JsonStreamOptions m_options;
    std::vector<char> m_buffer; // [m_begin, m_end) unparsed text, then the '\0' sentinel
    size_t m_begin = 0;
    size_t m_end = 0;
    uint64_t m_consumedBefore = 0; // content bytes dropped from the buffer's front so far
    bool m_sourceEnded = false;
};

} // namespace sightline
