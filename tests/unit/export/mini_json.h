// A small, strict JSON parser for checking exported files in tests: it rejects anything that is
// not RFC 8259 JSON (including strings that are not well-formed UTF-8), decodes string escapes,
// and keeps each number's text so that tests can read decimals without rounding.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace sightline::test {

struct JsonValue
{
    enum class Type { Null, Bool, Number, String, Array, Object } type = Type::Null;
    bool boolean = false;
    std::string text; // the number's literal text, or the decoded string
    std::vector<JsonValue> items;
    std::vector<std::pair<std::string, JsonValue>> members;

    const JsonValue* find(const std::string& key) const;
    // The member's string (or number text), or "" when absent.
    std::string str(const std::string& key) const;
};

// Parses a whole document; on failure returns nothing and sets `error` to where and why.
std::optional<JsonValue> parseJson(const std::string& document, std::string& error);

// "1234.567" (microseconds) -> 1234567 (nanoseconds), exactly; nothing if it has more than
// three decimals or is not a plain decimal.
std::optional<int64_t> microsTextToNanoseconds(const std::string& text);

} // namespace sightline::test
