// A pull tokenizer over one contiguous piece of JSON text, for streaming importers: it never
// builds a tree, hands out strings as views into the text (decoding into caller-owned scratch
// only when a string has escapes), and number values as their literal text.
// Invariant: the text ends with a '\0' sentinel at `end`. Reaching it means the piece is
// incomplete: the cursor throws JsonNeedMore, and the caller (json_stream.h) refills its buffer
// and parses the element again from its start. Malformed text throws JsonSyntaxError.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>

namespace sightline {

struct JsonNeedMore
{
};

class JsonSyntaxError : public std::runtime_error
{
public:
    JsonSyntaxError(const char* at, std::string what)
        : std::runtime_error(std::move(what))
        , position(at)
    { }
    const char* position; // where in the piece the problem is
};

namespace json_detail {
// Bytes that end a run of plain string characters: '"', '\\' and the '\0' sentinel.
extern const std::array<bool, 256> kStringStop;
// Bytes that can continue a number: digits, '.', 'e', 'E', '+', '-'.
extern const std::array<bool, 256> kNumberByte;
} // namespace json_detail

class JsonCursor
{
public:
    JsonCursor(const char* begin, const char* end)
        : m_p(begin)
        , m_end(end)
    { }

    const char* position() const { return m_p; }

    // The next significant character, without consuming it.
    char peek()
    {
        skipSpace();
        if (m_p == m_end) throw JsonNeedMore {};
        return *m_p;
    }
    bool consume(char c)
    {
        if (peek() != c) return false;
        ++m_p;
        return true;
    }
    void expect(char c)
    {
        if (!consume(c)) unexpected(c);
    }

    // A string value; the view points into the text, or into `scratch` when it had escapes.
    std::string_view string(std::string& scratch)
    {
        if (peek() != '"') unexpected('"');
        const char* begin = ++m_p;
        const char* p = begin;
        while (!json_detail::kStringStop[uint8_t(*p)])
            ++p;
        if (*p == '"') {
            m_p = p + 1;
            return {begin, size_t(p - begin)};
        }
        return stringSlow(begin, p, scratch);
    }

    // A number's literal text ("-12.5e3").
    std::string_view number()
    {
        const char c = peek();
        if (c != '-' && (c < '0' || c > '9')) unexpectedValue("a number");
        const char* begin = m_p;
        const char* p = m_p + 1;
        while (json_detail::kNumberByte[uint8_t(*p)])
            ++p;
        if (p == m_end) throw JsonNeedMore {};
        m_p = p;
        return {begin, size_t(p - begin)};
    }

    // Steps over a UTF-8 byte order mark (EF BB BF) when the text starts with one.
    void skipByteOrderMark()
    {
        static constexpr char kMark[] = "\xEF\xBB\xBF";
        for (int i = 0; i < 3; ++i) {
            if (m_p + i == m_end && i > 0) throw JsonNeedMore {}; // a mark cut by the buffer's end
            if (m_p[i] != kMark[i]) return; // (the '\0' sentinel never matches)
        }
        m_p += 3;
    }

    // Skips any value, nested or not.
    void skipValue();
    // Consumes `null` when it is next.
    bool consumeNull();

    // Object and array walking: call after the opening brace was consumed.
    // nextKey: false at the closing '}', else the key (with ':' consumed).
    bool nextKey(std::string_view& key, std::string& scratch, bool& first)
    {
        if (consume('}')) return false;
        if (!first) expect(',');
        first = false;
        key = string(scratch);
        expect(':');
        return true;
    }
    // nextElement: false at the closing ']'.
    bool nextElement(bool& first)
    {
        if (consume(']')) return false;
        if (!first) expect(',');
        first = false;
        return true;
    }

    [[noreturn]] void fail(const std::string& what) const { throw JsonSyntaxError(m_p, what); }

private:
    void skipSpace()
    {
        while (*m_p == ' ' || *m_p == '\n' || *m_p == '\r' || *m_p == '\t')
            ++m_p;
    }
    std::string_view stringSlow(const char* begin, const char* stop, std::string& scratch);
    void skipString();
    void skipLiteral();
    [[noreturn]] void unexpected(char wanted);
    [[noreturn]] void unexpectedValue(const char* wanted);

    const char* m_p;
    const char* m_end;
};

} // namespace sightline
