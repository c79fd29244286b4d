#include "model/text/utf8_repair.h"

namespace sightline {
namespace {

bool isContinuation(unsigned char c)
{
    return (c & 0xC0) == 0x80;
}

// Where the first ill-formed byte lies in `text`, or text.size() when there is none. ASCII runs
// are skipped a byte at a time without decoding: they are nearly all of any real name.
size_t firstInvalid(std::string_view text, size_t from)
{
    size_t i = from;
    while (i < text.size()) {
        if ((unsigned char)text[i] < 0x80) {
            ++i;
            continue;
        }
        const Utf8Unit unit = utf8UnitAt(text, i);
        if (!unit.valid) return i;
        i += unit.length;
    }
    return text.size();
}

} // namespace

Utf8Unit utf8UnitAt(std::string_view text, size_t i)
{
    const auto byte = [&](size_t k) { return i + k < text.size() ? (unsigned char)text[i + k] : 0; };
    const unsigned char lead = byte(0);
    if (lead < 0x80) return {1, true};
    // The second byte's allowed range excludes overlong forms, surrogates and code points past
    // U+10FFFF; a lead byte that starts no sequence (0x80-0xC1, 0xF5-0xFF) is ill-formed alone.
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
        return {1, false};
    }
    const unsigned char second = byte(1);
    if (second < low || second > high) return {1, false};
    for (size_t k = 2; k < length; ++k)
        if (!isContinuation(byte(k))) return {k, false}; // the lead and the continuations so far
    return {length, true};
}

bool isValidUtf8(std::string_view text)
{
    return firstInvalid(text, 0) == text.size();
}

void appendRepairedUtf8(std::string& out, std::string_view text)
{
    size_t i = 0;
    while (i < text.size()) {
        const size_t bad = firstInvalid(text, i);
        out.append(text.data() + i, bad - i);
        if (bad == text.size()) break;
        out += kReplacementCharacter;
        i = bad + utf8UnitAt(text, bad).length;
    }
}

std::string repairUtf8(std::string_view text)
{
    std::string out;
    out.reserve(text.size());
    appendRepairedUtf8(out, text);
    return out;
}

} // namespace sightline
