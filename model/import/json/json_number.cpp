#include "model/import/json/json_number.h"

#include <limits>

namespace sightline {
namespace {

// A decimal number split into parts: sign, the digits of the integer and fraction parts
// concatenated as a digit string, where the decimal point sits, and the exponent.
struct DecimalParts
{
    bool negative = false;
    std::string_view integerDigits;
    std::string_view fractionDigits;
    int64_t exponent = 0;
};

bool isDigit(char c)
{
    return c >= '0' && c <= '9';
}

std::optional<DecimalParts> split(std::string_view text)
{
    DecimalParts parts;
    size_t i = 0;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) parts.negative = text[i++] == '-';
    const size_t integerBegin = i;
    while (i < text.size() && isDigit(text[i]))
        ++i;
    parts.integerDigits = text.substr(integerBegin, i - integerBegin);
    if (i < text.size() && text[i] == '.') {
        const size_t fractionBegin = ++i;
        while (i < text.size() && isDigit(text[i]))
            ++i;
        parts.fractionDigits = text.substr(fractionBegin, i - fractionBegin);
    }
    if (parts.integerDigits.empty() && parts.fractionDigits.empty()) return std::nullopt;
    if (i < text.size() && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        bool negativeExponent = false;
        if (i < text.size() && (text[i] == '-' || text[i] == '+')) negativeExponent = text[i++] == '-';
        if (i == text.size()) return std::nullopt;
        int64_t exponent = 0;
        for (; i < text.size() && isDigit(text[i]); ++i) {
            exponent = exponent * 10 + (text[i] - '0');
            if (exponent > 400) return std::nullopt; // far outside int64 either way
        }
        parts.exponent = negativeExponent ? -exponent : exponent;
    }
    if (i != text.size()) return std::nullopt;
    return parts;
}

// The index-th digit of the number's digits (integer part then fraction), '0' past either end.
char digitAt(const DecimalParts& p, int64_t index)
{
    const int64_t integerCount = int64_t(p.integerDigits.size());
    if (index < 0) return '0';
    if (index < integerCount) return p.integerDigits[size_t(index)];
    const int64_t f = index - integerCount;
    return f < int64_t(p.fractionDigits.size()) ? p.fractionDigits[size_t(f)] : '0';
}

// The value scaled by 10^scale, rounded half away from zero; nothing on overflow.
std::optional<int64_t> scaled(const DecimalParts& p, int64_t scale, bool round)
{
    const int64_t point = int64_t(p.integerDigits.size()) + p.exponent + scale; // digits left of the point
    uint64_t value = 0;
    constexpr uint64_t kLimit = uint64_t(std::numeric_limits<int64_t>::max());
    for (int64_t i = 0; i < point; ++i) {
        const char d = digitAt(p, i);
        if (value > (kLimit - uint64_t(d - '0')) / 10) return std::nullopt;
        value = value * 10 + uint64_t(d - '0');
    }
    if (round && point >= 0 && digitAt(p, point) >= '5') {
        if (value == kLimit) return std::nullopt;
        ++value;
    }
    const int64_t result = int64_t(value);
    return p.negative ? -result : result;
}

} // namespace

std::optional<int64_t> microsTextToNanos(std::string_view text)
{
    const std::optional<DecimalParts> parts = split(text);
    if (!parts) return std::nullopt;
    // Fast path for the common "digits.ddd" form.
    if (parts->exponent == 0 && parts->fractionDigits.size() <= 3 && parts->integerDigits.size() <= 15) {
        int64_t value = 0;
        for (char d : parts->integerDigits)
            value = value * 10 + (d - '0');
        int64_t fraction = 0;
        size_t digits = 0;
        for (char d : parts->fractionDigits) {
            fraction = fraction * 10 + (d - '0');
            ++digits;
        }
        for (; digits < 3; ++digits)
            fraction *= 10;
        value = value * 1000 + fraction;
        return parts->negative ? -value : value;
    }
    return scaled(*parts, 3, true);
}

std::optional<int64_t> numberTextToInteger(std::string_view text)
{
    const std::optional<DecimalParts> parts = split(text);
    if (!parts) return std::nullopt;
    if (parts->exponent == 0 && parts->integerDigits.size() <= 18) {
        int64_t value = 0;
        for (char d : parts->integerDigits)
            value = value * 10 + (d - '0');
        return parts->negative ? -value : value;
    }
    return scaled(*parts, 0, false);
}

std::optional<uint64_t> integerFromString(std::string_view text)
{
    uint64_t value = 0;
    if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
        if (text.size() > 18) return std::nullopt;
        for (char c : text.substr(2)) {
            int digit = isDigit(c)       ? c - '0'
                : (c >= 'a' && c <= 'f') ? c - 'a' + 10
                : (c >= 'A' && c <= 'F') ? c - 'A' + 10
                                         : -1;
            if (digit < 0) return std::nullopt;
            value = value * 16 + uint64_t(digit);
        }
        return value;
    }
    if (text.empty() || text.size() > 19) return std::nullopt;
    for (char c : text) {
        if (!isDigit(c)) return std::nullopt;
        value = value * 10 + uint64_t(c - '0');
    }
    return value;
}

} // namespace sightline
