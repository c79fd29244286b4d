// Reading JSON number text without losing precision. Chrome trace timestamps are microseconds
// written as decimals ("1712195495519695.8", "4354241114283.370"): the integer part is read as
// an integer and the first three decimals as nanoseconds, so no timestamp goes through a double
// (which holds only 15-16 significant digits, less than an epoch time in nanoseconds needs).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace sightline {

// Microseconds as JSON number text -> nanoseconds. Exact up to three decimals; further digits
// round half away from zero; an exponent ("1.5e3") is accepted and handled exactly too.
// Nothing for text that is not a number or does not fit in int64 nanoseconds.
std::optional<int64_t> microsTextToNanos(std::string_view text);

// A JSON number as an integer: its integer part ("7" -> 7, "7.9" -> 7, "-1" -> -1, "1e3" ->
// 1000). Nothing when it is not a number or does not fit in int64.
std::optional<int64_t> numberTextToInteger(std::string_view text);

// An integer written as text: decimal or 0x-prefixed hexadecimal ("12", "0x1f").
std::optional<uint64_t> integerFromString(std::string_view text);

} // namespace sightline
