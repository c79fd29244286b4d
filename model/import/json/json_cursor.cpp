#include "model/import/json/json_cursor.h"

namespace sightline {
namespace json_detail {
namespace {

constexpr std::array<bool, 256> makeStringStop()
{
    std::array<bool, 256> table {};
    table[uint8_t('"')] = true;
    table[uint8_t('\\')] = true;
    table[0] = true;
    return table;
}

constexpr std::array<bool, 256> makeNumberByte()
{
    std::array<bool, 256> table {};
    for (char c = '0'; c <= '9'; ++c)
        table[uint8_t(c)] = true;
    for (char c : {'.', 'e', 'E', '+', '-'})
        table[uint8_t(c)] = true;
    return table;
}

} // namespace

constinit const std::array<bool, 256> kStringStop = makeStringStop();
constinit const std::array<bool, 256> kNumberByte = makeNumberByte();

} // namespace json_detail

namespace {

int hexValue(char c)
{
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

void appendUtf8(std::string& out, uint32_t code)
{
    if (code < 0x80) {
        out += char(code);
    } else if (code < 0x800) {
        out += char(0xC0 | (code >> 6));
        out += char(0x80 | (code & 0x3F));
    } else if (code < 0x10000) {
        out += char(0xE0 | (code >> 12));
        out += char(0x80 | ((code >> 6) & 0x3F));
        out += char(0x80 | (code & 0x3F));
    } else {
        out += char(0xF0 | (code >> 18));
        out += char(0x80 | ((code >> 12) & 0x3F));
        out += char(0x80 | ((code >> 6) & 0x3F));
        out += char(0x80 | (code & 0x3F));
    }
}

} // namespace

std::string_view JsonCursor::stringSlow(const char* begin, const char* stop, std::string& scratch)
{
    scratch.assign(begin, stop);
    const char* p = stop;
    for (;;) {
        const char c = *p;
        if (c == '"') {
            m_p = p + 1;
            return scratch;
        }
        if (c == '\0') {
            if (p == m_end) throw JsonNeedMore {};
            m_p = p;
            fail("a string holds a NUL byte");
        }
        if (c != '\\') {
            const char* run = p;
            while (!json_detail::kStringStop[uint8_t(*p)])
                ++p;
            scratch.append(run, p);
            continue;
        }
        // An escape: \" \\ \/ \b \f \n \r \t or \uXXXX (with surrogate pairs).
        const char e = p[1];
        if (e == '\0' && p + 1 == m_end) throw JsonNeedMore {};
        p += 2;
        switch (e) {
        case '"':
            scratch += '"';
            break;
        case '\\':
            scratch += '\\';
            break;
        case '/':
            scratch += '/';
            break;
        case 'b':
            scratch += '\b';
            break;
        case 'f':
            scratch += '\f';
            break;
        case 'n':
            scratch += '\n';
            break;
        case 'r':
            scratch += '\r';
            break;
        case 't':
            scratch += '\t';
            break;
        case 'u': {
            auto readHex4 = [&](const char* at) -> int {
                int value = 0;
                for (int i = 0; i < 4; ++i) {
                    if (at[i] == '\0' && at + i == m_end) throw JsonNeedMore {};
                    const int digit = hexValue(at[i]);
                    if (digit < 0) {
                        m_p = at + i;
                        fail("a \\u escape is not followed by four hexadecimal digits");
                    }
                    value = value * 16 + digit;
                }
                return value;
            };
            uint32_t code = uint32_t(readHex4(p));
            p += 4;
            if (code >= 0xD800 && code < 0xDC00) {
                // A high surrogate: a low one should follow; if not, keep the replacement char.
                if (p[0] == '\0' && p == m_end) throw JsonNeedMore {};
                if (p[0] == '\\' && p[1] == '\0' && p + 1 == m_end) throw JsonNeedMore {};
                if (p[0] == '\\' && p[1] == 'u') {
                    const uint32_t low = uint32_t(readHex4(p + 2));
                    if (low >= 0xDC00 && low < 0xE000) {
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00);
                        p += 6;
                    } else {
                        code = 0xFFFD;
                    }
                } else {
                    code = 0xFFFD;
                }
            } else if (code >= 0xDC00 && code < 0xE000) {
                code = 0xFFFD;
            }
            appendUtf8(scratch, code);
            break;
        }
        default:
            m_p = p - 2;
            fail("a string holds an unknown escape sequence");
        }
    }
}

void JsonCursor::skipString()
{
    const char* p = m_p + 1; // past the opening quote
    for (;;) {
        while (!json_detail::kStringStop[uint8_t(*p)])
            ++p;
        if (*p == '"') {
            m_p = p + 1;
            return;
        }
        if (*p == '\0') {
            if (p == m_end) throw JsonNeedMore {};
            m_p = p;
            fail("a string holds a NUL byte");
        }
        // A backslash: skip it and the character it escapes.
        if (p[1] == '\0' && p + 1 == m_end) throw JsonNeedMore {};
        p += 2;
    }
}

void JsonCursor::skipLiteral()
{
    const char* p = m_p;
    while ((*p >= 'a' && *p <= 'z') || json_detail::kNumberByte[uint8_t(*p)])
        ++p;
    if (p == m_end) throw JsonNeedMore {};
    if (p == m_p) unexpectedValue("a value");
    m_p = p;
}

bool JsonCursor::consumeNull()
{
    if (peek() != 'n') return false;
    skipLiteral();
    return true;
}

void JsonCursor::skipValue()
{
    const char c = peek();
    if (c == '"') return skipString();
    if (c != '{' && c != '[') return skipLiteral();
    // A nested object or array: track depth, stepping over strings whole.
    int depth = 0;
    const char* p = m_p;
    for (;;) {
        const char b = *p;
        if (b == '"') {
            m_p = p;
            skipString();
            p = m_p;
            continue;
        }
        if (b == '{' || b == '[') {
            ++depth;
        } else if (b == '}' || b == ']') {
            if (--depth == 0) {
                m_p = p + 1;
                return;
            }
        } else if (b == '\0' && p == m_end) {
            throw JsonNeedMore {};
        }
        ++p;
    }
}

void JsonCursor::unexpected(char wanted)
{
    const char c = *m_p;
    std::string what = "expected '";
    what += wanted;
    what += "' but found ";
    if (c == '\0')
        what += "a NUL byte";
    else if (uint8_t(c) < 0x20 || uint8_t(c) >= 0x7f)
        what += "byte " + std::to_string(uint8_t(c));
    else
        what += std::string("'") + c + "'";
    fail(what);
}

void JsonCursor::unexpectedValue(const char* wanted)
{
    const char c = *m_p;
    std::string what = std::string("expected ") + wanted + " but found ";
    if (uint8_t(c) < 0x20 || uint8_t(c) >= 0x7f)
        what += "byte " + std::to_string(uint8_t(c));
    else
        what += std::string("'") + c + "'";
    fail(what);
}

} // namespace sightline
