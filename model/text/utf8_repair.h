// Making text well-formed UTF-8, the one way every output does it (CSV fields, JSON strings,
// SQLite TEXT, the stats tables). Names come unchecked from the profiled program or a foreign
// file, so any of them may hold bytes that are not UTF-8. Well-formed UTF-8 passes unchanged,
// byte for byte; each ill-formed sequence becomes one U+FFFD, where a sequence is a maximal
// subpart as the Unicode standard (chapter 3, "U+FFFD Substitution of Maximal Subparts")
// defines it and Python's errors="replace" decodes: "\xFF\xFE" gives two U+FFFD, a multibyte
// character cut short ("\xE2\x9C") gives one.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace sightline {

// U+FFFD REPLACEMENT CHARACTER, encoded.
inline constexpr std::string_view kReplacementCharacter = "\xEF\xBF\xBD";

// What starts at text[i] (i < text.size()): a well-formed character of `length` bytes, or an
// ill-formed sequence of `length` bytes (at least 1) that stands for one U+FFFD.
struct Utf8Unit
{
    size_t length = 1;
    bool valid = true;
};
Utf8Unit utf8UnitAt(std::string_view text, size_t i);

bool isValidUtf8(std::string_view text);

// Appends `text` with each ill-formed sequence replaced by U+FFFD.
void appendRepairedUtf8(std::string& out, std::string_view text);
std::string repairUtf8(std::string_view text);

} // namespace sightline
