#include "model/text/text_format.h"

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace sightline {

void appendInt(std::string& out, int64_t value)
{
    char buffer[24];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, result.ptr);
}

void appendUint(std::string& out, uint64_t value)
{
    char buffer[24];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, result.ptr);
}

void appendDouble(std::string& out, double value)
{
    if (std::isnan(value)) {
        out += "nan";
        return;
    }
    if (std::isinf(value)) {
        out += value < 0 ? "-inf" : "inf";
        return;
    }
    char buffer[32];
    auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    out.append(buffer, result.ptr);
}

void appendFixed(std::string& out, double value, int decimals)
{
    if (!std::isfinite(value)) {
        appendDouble(out, value);
        return;
    }
    // The magnitude with more digits than kept, rounded half up on its digits by hand.
    constexpr int kExtraDigits = 17;
    char buffer[400];
    const int length
        = std::snprintf(buffer, sizeof buffer, "%.*f", decimals + kExtraDigits, std::fabs(value));
    std::string digits(buffer, size_t(length - kExtraDigits - (decimals == 0 ? 1 : 0)));
    if (buffer[length - kExtraDigits] >= '5') {
        size_t at = digits.size();
        while (at > 0) {
            char& digit = digits[--at];
            if (digit == '.') continue;
            if (digit != '9') {
                ++digit;
                break;
            }
            digit = '0';
            if (at == 0) digits.insert(digits.begin(), '1');
        }
    }
    if (value < 0) out += '-';
    out += digits;
}

std::string groupDigits(std::string_view digits)
{
    const bool negative = !digits.empty() && digits.front() == '-';
    if (negative) digits.remove_prefix(1);
    std::string grouped = negative ? "-" : "";
    for (size_t i = 0; i < digits.size(); ++i) {
        if (i > 0 && (digits.size() - i) % 3 == 0) grouped += ',';
        grouped += digits[i];
    }
    return grouped;
}

void appendMicros(std::string& out, Timestamp nanoseconds)
{
    uint64_t magnitude = nanoseconds < 0 ? 0 - uint64_t(nanoseconds) : uint64_t(nanoseconds);
    if (nanoseconds < 0) out += '-';
    appendUint(out, magnitude / 1000);
    uint32_t fraction = uint32_t(magnitude % 1000);
    if (fraction == 0) return;
    char digits[4]
        = {'.', char('0' + fraction / 100), char('0' + fraction / 10 % 10), char('0' + fraction % 10)};
    size_t length = 4;
    while (digits[length - 1] == '0')
        --length;
    out.append(digits, length);
}

void appendArgbHex(std::string& out, uint32_t argb)
{
    static constexpr char kHex[] = "0123456789ABCDEF";
    out += "0x";
    for (int shift = 28; shift >= 0; shift -= 4)
        out += kHex[(argb >> shift) & 0xF];
}

std::string cudaVersionText(int64_t encoded)
{
    if (encoded <= 0) return {};
    return std::to_string(encoded / 1000) + "." + std::to_string((encoded % 1000) / 10);
}

PayloadValue decodePayload(PayloadType type, uint64_t bits)
{
    PayloadValue value;
    const uint32_t low = uint32_t(bits);
    switch (type) {
    case PayloadType::None:
        break;
    case PayloadType::UInt64:
        value.kind = PayloadValue::Kind::Unsigned;
        value.asUnsigned = bits;
        break;
    case PayloadType::UInt32:
        value.kind = PayloadValue::Kind::Unsigned;
        value.asUnsigned = low;
        break;
    case PayloadType::Int64:
        value.kind = PayloadValue::Kind::Signed;
        value.asSigned = int64_t(bits);
        break;
    case PayloadType::Int32:
        value.kind = PayloadValue::Kind::Signed;
        value.asSigned = int32_t(low);
        break;
    case PayloadType::Double:
        value.kind = PayloadValue::Kind::Floating;
        value.asFloating = std::bit_cast<double>(bits);
        break;
    case PayloadType::Float:
        value.kind = PayloadValue::Kind::Floating;
        value.asFloating = std::bit_cast<float>(low);
        break;
    }
    return value;
}

void appendPayload(std::string& out, PayloadType type, uint64_t bits)
{
    const PayloadValue value = decodePayload(type, bits);
    switch (value.kind) {
    case PayloadValue::Kind::None:
        break;
    case PayloadValue::Kind::Unsigned:
        appendUint(out, value.asUnsigned);
        break;
    case PayloadValue::Kind::Signed:
        appendInt(out, value.asSigned);
        break;
    case PayloadValue::Kind::Floating:
        appendDouble(out, value.asFloating);
        break;
    }
}

std::string_view payloadTypeName(PayloadType type)
{
    switch (type) {
    case PayloadType::None:
        return "";
    case PayloadType::UInt64:
        return "uint64";
    case PayloadType::Int64:
        return "int64";
    case PayloadType::Double:
        return "double";
    case PayloadType::UInt32:
        return "uint32";
    case PayloadType::Int32:
        return "int32";
    case PayloadType::Float:
        return "float";
    }
    return "";
}

} // namespace sightline
