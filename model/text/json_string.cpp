#include "model/text/json_string.h"

namespace sightline {
namespace {

bool isContinuation(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

bool needsEscape(unsigned char c)
{
    return c < 0x20 || c == '"' || c == '\\';
}

void appendEscaped(std::string& out, unsigned char c)
{
    switch (c) {
    case '"':
        out += "\\\"";
        return;
    case '\\':
        out += "\\\\";
        return;
    case '\b':
        out += "\\b";
        return;
    case '\f':
        out += "\\f";
        return;
    case '\n':
        out += "\\n";
        return;
    case '\r':
        out += "\\r";
        return;
    case '\t':
        out += "\\t";
        return;
    default:
        break;
    }
    static constexpr char kHex[] = "0123456789abcdef";
    out += "\\u00";
    out += kHex[c >> 4];
    out += kHex[c & 0xF];
}

} // namespace

size_t utf8SequenceLength(std::string_view text, size_t i)
{
    const auto byte = [&](size_t k) { return i + k < text.size() ? (unsigned char)text[i + k] : 0; };
    const unsigned char lead = byte(0);
    if (lead < 0x80) return 1;
    // The second byte's allowed range excludes overlong forms, surrogates and code points past U+10FFFF.
    unsigned char low = 0x80, high = 0xBF;
    size_t length = 0;
    if (lead >= 0xC2 && lead <= 0xDF)
        length = 2;
    else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0) low = 0xA0;
        if (lead == 0xED) high = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0) low = 0x90;
        if (lead == 0xF4) high = 0x8F;
    } else {
        return 0;
    }
    const unsigned char second = byte(1);
    if (second < low || second > high) return 0;
    for (size_t k = 2; k < length; ++k)
        if (!isContinuation(byte(k))) return 0;
    return length;
}

void appendJsonString(std::string& out, std::string_view text)
{
    out += '"';
    size_t i = 0;
    while (i < text.size()) {
        // Copy the longest run of bytes that need no attention in one go.
        size_t run = i;
        while (run < text.size() && (unsigned char)text[run] < 0x80 && !needsEscape((unsigned char)text[run]))
            ++run;
        out.append(text.data() + i, run - i);
        i = run;
        if (i == text.size()) break;
        const unsigned char c = (unsigned char)text[i];
        if (c < 0x80) {
            appendEscaped(out, c);
            ++i;
            continue;
        }
        const size_t length = utf8SequenceLength(text, i);
        if (length == 0) {
            out += "\xEF\xBF\xBD"; // U+FFFD REPLACEMENT CHARACTER
            ++i;
        } else {
            out.append(text.data() + i, length);
            i += length;
        }
    }
    out += '"';
}

} // namespace sightline
