// Appending values as text for the text exporters (Chrome trace JSON and CSV): integers,
// shortest round-trip doubles, nanoseconds as decimal microseconds that keep every nanosecond
// ("1234.567"), ARGB colours, CUDA's encoded versions, and NVTX payloads decoded from their raw
// bits.
#pragma once

#include "model/core/enums.h"
#include "model/core/time.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace sightline {

void appendInt(std::string& out, int64_t value);
void appendUint(std::string& out, uint64_t value);
// Shortest text that reads back to the same double; "nan", "inf" or "-inf" when not finite.
void appendDouble(std::string& out, double value);

// `decimals` decimals, ties rounded away from zero as the viewer has always shown them (printf
// rounds them to even): 12.5 -> "13", -2.5 -> "-3", 0.125 at 2 -> "0.13".
void appendFixed(std::string& out, double value, int decimals);

// A comma every three digits of a run of digits that may start with '-': "-1234567" ->
// "-1,234,567".
std::string groupDigits(std::string_view digits);

// Nanoseconds as microseconds with up to three decimals, trailing zeros dropped:
// 1234567 -> "1234.567", 1234500 -> "1234.5", 2000 -> "2", -1500 -> "-1.5".
void appendMicros(std::string& out, Timestamp nanoseconds);

// "0xAARRGGBB".
void appendArgbHex(std::string& out, uint32_t argb);

// A CUDA version as CUDA encodes it (1000 * major + 10 * minor): 12040 -> "12.4"; "" for 0 or
// less (unknown).
std::string cudaVersionText(int64_t encoded);

// An NVTX payload read back from its raw bits (PayloadType says which union member it is).
struct PayloadValue
{
    enum class Kind : uint8_t { None, Unsigned, Signed, Floating } kind = Kind::None;
    uint64_t asUnsigned = 0;
    int64_t asSigned = 0;
    double asFloating = 0;
};
PayloadValue decodePayload(PayloadType type, uint64_t bits);

// The payload as text ("" for none); floating values use appendDouble.
void appendPayload(std::string& out, PayloadType type, uint64_t bits);

// "uint64", "int64", "double", "uint32", "int32", "float", or "" for none.
std::string_view payloadTypeName(PayloadType type);

} // namespace sightline
