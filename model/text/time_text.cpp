#include "model/text/time_text.h"

#include <charconv>
#include <string>

namespace sightline {

std::optional<Timestamp> parseTime(std::string_view text)
{
    double number = 0;
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), number);
    if (ec != std::errc() || end == text.data()) return std::nullopt;
    const std::string_view unit(end, size_t(text.data() + text.size() - end));
    double scale = 1;
    if (unit.empty() || unit == "ns")
        scale = 1;
    else if (unit == "us")
        scale = 1e3;
    else if (unit == "ms")
        scale = 1e6;
    else if (unit == "s")
        scale = 1e9;
    else
        return std::nullopt;
    return Timestamp(number * scale + (number >= 0 ? 0.5 : -0.5));
}

std::optional<TimeRange> parseTimeRange(std::string_view text)
{
    const auto colon = text.find(':');
    if (colon == std::string_view::npos) return std::nullopt;
    auto start = parseTime(text.substr(0, colon));
    auto end = parseTime(text.substr(colon + 1));
    if (!start || !end || *end < *start) return std::nullopt;
    return TimeRange {*start, *end};
}

} // namespace sightline
