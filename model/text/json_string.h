// Writing JSON text for the Chrome trace exporter: string literals, and objects appended field
// by field. The output is always valid JSON whatever the input bytes: quotes, backslashes and
// control characters are escaped, and any byte sequence that is not well-formed UTF-8 (kernel
// names and NVTX texts come from the profiled program, unchecked) is replaced by U+FFFD as
// model/text/utf8_repair.h says.
#pragma once

#include "model/text/text_format.h"

#include <array>
#include <cmath>
#include <string>
#include <string_view>

namespace sightline {

// Appends `text` as a quoted JSON string.
void appendJsonString(std::string& out, std::string_view text);

// Appends one JSON object field by field; keys are trusted literals and are not escaped.
class JsonObject
{
public:
    explicit JsonObject(std::string& out)
        : m_out(out)
    {
        m_out += '{';
    }

    JsonObject& str(std::string_view key, std::string_view value)
    {
        field(key);
        appendJsonString(m_out, value);
        return *this;
    }
    JsonObject& num(std::string_view key, int64_t value)
    {
        field(key);
        appendInt(m_out, value);
        return *this;
    }
    JsonObject& unum(std::string_view key, uint64_t value)
    {
        field(key);
        appendUint(m_out, value);
        return *this;
    }
    JsonObject& real(std::string_view key, double value)
    {
        field(key);
        if (std::isfinite(value))
            appendDouble(m_out, value);
        else
            m_out += "null";
        return *this;
    }
    JsonObject& micros(std::string_view key, Timestamp nanoseconds)
    {
        field(key);
        appendMicros(m_out, nanoseconds);
        return *this;
    }
    JsonObject& triple(std::string_view key, const std::array<uint32_t, 3>& v)
    {
        field(key);
        m_out += '[';
        for (size_t i = 0; i < 3; ++i) {
            if (i > 0) m_out += ',';
            appendUint(m_out, v[i]);
        }
        m_out += ']';
        return *this;
    }
    JsonObject object(std::string_view key)
    {
        field(key);
        return JsonObject(m_out);
    }
    void close() { m_out += '}'; }

private:
    void field(std::string_view key)
    {
        if (!m_empty) m_out += ',';
        m_empty = false;
        m_out += '"';
        m_out += key;
        m_out += "\":";
    }

    std::string& m_out;
    bool m_empty = true;
};

} // namespace sightline
