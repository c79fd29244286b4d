#include "mini_json.h"

#include <cstdint>

namespace sightline::test {
namespace {

class Parser
{
public:
    explicit Parser(const std::string& text)
        : m_text(text)
    { }

    std::optional<JsonValue> document(std::string& error)
    {
        JsonValue value;
        if (!parseValue(value, 0)) {
            error = m_error + " at byte " + std::to_string(m_pos);
            return std::nullopt;
        }
        skipSpace();
        if (m_pos != m_text.size()) {
            error = "trailing characters at byte " + std::to_string(m_pos);
            return std::nullopt;
        }
        return value;
    }

private:
    bool fail(const char* why)
    {
        if (m_error.empty()) m_error = why;
        return false;
    }
    void skipSpace()
    {
        while (m_pos < m_text.size()
            && (m_text[m_pos] == ' ' || m_text[m_pos] == '\n' || m_text[m_pos] == '\r'
                || m_text[m_pos] == '\t'))
            ++m_pos;
    }
    bool literal(const char* word)
    {
        for (size_t i = 0; word[i]; ++i, ++m_pos)
            if (m_pos >= m_text.size() || m_text[m_pos] != word[i]) return fail("bad literal");
        return true;
    }

    bool parseValue(JsonValue& out, int depth)
    {
        if (depth > 64) return fail("nesting too deep");
        skipSpace();
        if (m_pos >= m_text.size()) return fail("unexpected end");
        const char c = m_text[m_pos];
        if (c == '{') return parseObject(out, depth);
        if (c == '[') return parseArray(out, depth);
        if (c == '"') {
            out.type = JsonValue::Type::String;
            return parseString(out.text);
        }
        if (c == 't' || c == 'f') {
            out.type = JsonValue::Type::Bool;
            out.boolean = c == 't';
            return literal(c == 't' ? "true" : "false");
        }
        if (c == 'n') return literal("null");
        return parseNumber(out);
    }

    bool parseObject(JsonValue& out, int depth)
    {
        out.type = JsonValue::Type::Object;
        ++m_pos;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == '}') return ++m_pos, true;
        while (true) {
            skipSpace();
            std::string key;
            if (m_pos >= m_text.size() || m_text[m_pos] != '"' || !parseString(key))
                return fail("expected a key");
            skipSpace();
            if (m_pos >= m_text.size() || m_text[m_pos++] != ':') return fail("expected ':'");
            out.members.emplace_back(std::move(key), JsonValue());
            if (!parseValue(out.members.back().second, depth + 1)) return false;
            skipSpace();
            if (m_pos >= m_text.size()) return fail("unterminated object");
            const char c = m_text[m_pos++];
            if (c == '}') return true;
            if (c != ',') return fail("expected ',' or '}'");
        }
    }

    bool parseArray(JsonValue& out, int depth)
    {
        out.type = JsonValue::Type::Array;
        ++m_pos;
        skipSpace();
        if (m_pos < m_text.size() && m_text[m_pos] == ']') return ++m_pos, true;
        while (true) {
            out.items.emplace_back();
            if (!parseValue(out.items.back(), depth + 1)) return false;
            skipSpace();
            if (m_pos >= m_text.size()) return fail("unterminated array");
            const char c = m_text[m_pos++];
            if (c == ']') return true;
            if (c != ',') return fail("expected ',' or ']'");
        }
    }

    bool parseNumber(JsonValue& out)
    {
        const size_t begin = m_pos;
        auto digits = [&] {
            const size_t from = m_pos;
            while (m_pos < m_text.size() && m_text[m_pos] >= '0' && m_text[m_pos] <= '9')
                ++m_pos;
            return m_pos > from;
        };
        if (m_pos < m_text.size() && m_text[m_pos] == '-') ++m_pos;
        if (m_pos < m_text.size() && m_text[m_pos] == '0')
            ++m_pos;
        else if (!digits())
            return fail("bad number");
        if (m_pos < m_text.size() && m_text[m_pos] == '.' && (++m_pos, !digits()))
            return fail("bad fraction");
        if (m_pos < m_text.size() && (m_text[m_pos] == 'e' || m_text[m_pos] == 'E')) {
            ++m_pos;
            if (m_pos < m_text.size() && (m_text[m_pos] == '+' || m_text[m_pos] == '-')) ++m_pos;
            if (!digits()) return fail("bad exponent");
        }
        out.type = JsonValue::Type::Number;
        out.text = m_text.substr(begin, m_pos - begin);
        return true;
    }

    static void appendUtf8(std::string& out, uint32_t cp)
    {
        if (cp < 0x80)
            out += char(cp);
        else if (cp < 0x800)
            out += char(0xC0 | cp >> 6), out += char(0x80 | (cp & 0x3F));
        else if (cp < 0x10000)
            out += char(0xE0 | cp >> 12), out += char(0x80 | (cp >> 6 & 0x3F)),
                out += char(0x80 | (cp & 0x3F));
        else
            out += char(0xF0 | cp >> 18), out += char(0x80 | (cp >> 12 & 0x3F)),
                out += char(0x80 | (cp >> 6 & 0x3F)), out += char(0x80 | (cp & 0x3F));
    }

    bool hex4(uint32_t& value)
    {
        value = 0;
        for (int i = 0; i < 4; ++i, ++m_pos) {
            if (m_pos >= m_text.size()) return fail("short \\u escape");
            const char c = m_text[m_pos];
            value <<= 4;
            if (c >= '0' && c <= '9')
                value |= uint32_t(c - '0');
            else if (c >= 'a' && c <= 'f')
                value |= uint32_t(c - 'a' + 10);
            else if (c >= 'A' && c <= 'F')
                value |= uint32_t(c - 'A' + 10);
            else
                return fail("bad \\u escape");
        }
        return true;
    }

    // Checks one raw UTF-8 sequence by decoding it (rejecting overlongs, surrogates, > U+10FFFF).
    bool copyUtf8(std::string& out)
    {
        const auto lead = (unsigned char)m_text[m_pos];
        const int length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0;
        if (length == 0 || lead > 0xF4 || m_pos + length > m_text.size()) return fail("invalid UTF-8");
        uint32_t cp = lead & (0x7F >> length);
        for (int i = 1; i < length; ++i) {
            const auto c = (unsigned char)m_text[m_pos + i];
            if ((c & 0xC0) != 0x80) return fail("invalid UTF-8");
            cp = cp << 6 | (c & 0x3F);
        }
        const uint32_t minimum = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000;
        if (cp < minimum || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return fail("invalid UTF-8");
        out.append(m_text, m_pos, size_t(length));
        m_pos += size_t(length);
        return true;
    }

    bool parseString(std::string& out)
    {
        ++m_pos; // opening quote
        while (m_pos < m_text.size()) {
            const auto c = (unsigned char)m_text[m_pos];
            if (c == '"') return ++m_pos, true;
            if (c < 0x20) return fail("control character in string");
            if (c >= 0x80) {
                if (!copyUtf8(out)) return false;
                continue;
            }
            ++m_pos;
            if (c != '\\') {
                out += char(c);
                continue;
            }
            if (m_pos >= m_text.size()) break;
            const char e = m_text[m_pos++];
            switch (e) {
            case '"':
                out += '"';
                break;
            case '\\':
                out += '\\';
                break;
            case '/':
                out += '/';
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                uint32_t cp = 0;
                if (!hex4(cp)) return false;
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    uint32_t low = 0;
                    if (m_text.compare(m_pos, 2, "\\u") != 0) return fail("lone surrogate");
                    m_pos += 2;
                    if (!hex4(low) || low < 0xDC00 || low > 0xDFFF) return fail("bad surrogate pair");
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    return fail("lone surrogate");
                }
                appendUtf8(out, cp);
                break;
            }
            default:
                return fail("bad escape");
            }
        }
        return fail("unterminated string");
    }

    const std::string& m_text;
    size_t m_pos = 0;
    std::string m_error;
};

} // namespace

const JsonValue* JsonValue::find(const std::string& key) const
{
    for (const auto& [name, value] : members)
        if (name == key) return &value;
    return nullptr;
}

std::string JsonValue::str(const std::string& key) const
{
    const JsonValue* v = find(key);
    return v ? v->text : std::string();
}

std::optional<JsonValue> parseJson(const std::string& document, std::string& error)
{
    return Parser(document).document(error);
}

std::optional<int64_t> microsTextToNanoseconds(const std::string& text)
{
    size_t i = 0;
    const bool negative = !text.empty() && text[0] == '-';
    if (negative) ++i;
    int64_t micros = 0;
    size_t digits = 0;
    for (; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++digits)
        micros = micros * 10 + (text[i] - '0');
    if (digits == 0) return std::nullopt;
    int64_t fraction = 0;
    int decimals = 0;
    if (i < text.size() && text[i] == '.') {
        for (++i; i < text.size() && text[i] >= '0' && text[i] <= '9'; ++i, ++decimals)
            fraction = fraction * 10 + (text[i] - '0');
        if (decimals == 0 || decimals > 3) return std::nullopt;
    }
    if (i != text.size()) return std::nullopt;
    for (int d = decimals; d < 3; ++d)
        fraction *= 10;
    const int64_t ns = micros * 1000 + fraction;
    return negative ? -ns : ns;
}

} // namespace sightline::test
