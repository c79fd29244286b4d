#include "model/text/json_string.h"

#include "model/text/utf8_repair.h"

namespace sightline {
namespace {

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
        const Utf8Unit unit = utf8UnitAt(text, i);
        if (unit.valid)
            out.append(text.data() + i, unit.length);
        else
            out += kReplacementCharacter;
        i += unit.length;
    }
    out += '"';
}

} // namespace sightline
