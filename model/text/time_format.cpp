#include "model/text/time_text.h"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace sightline {
namespace {

std::string printed(const char* pattern, double value, const char* unit)
{
    char text[64];
    std::snprintf(text, sizeof text, pattern, value, unit);
    return text;
}

} // namespace

std::string formatDuration(Duration ns)
{
    const double magnitude = std::fabs(double(ns));
    if (magnitude < 1e3) return std::to_string(ns) + " ns";
    if (magnitude < 1e6) return printed("%.3f %s", double(ns) / 1e3, "\xC2\xB5s");
    if (magnitude < 1e9) return printed("%.3f %s", double(ns) / 1e6, "ms");
    return printed("%.3f %s", double(ns) / 1e9, "s");
}

int decimalsForResolution(Duration resolution)
{
    int decimals = 9;
    for (Duration step = 1; step * 10 <= resolution && decimals > 1; step *= 10)
        --decimals;
    return decimals;
}

std::string formatTimestamp(Timestamp t, Duration resolution)
{
    const int decimals = decimalsForResolution(resolution);
    const bool negative = t < 0;
    const uint64_t magnitude = uint64_t(negative ? -t : t);
    const uint64_t seconds = magnitude / 1000000000ull;
    uint64_t fraction = magnitude % 1000000000ull;
    for (int d = 9; d > decimals; --d)
        fraction /= 10;
    char text[64];
    std::snprintf(text, sizeof text, "%s%llu.%0*llu s", negative ? "-" : "",
        static_cast<unsigned long long>(seconds), decimals, static_cast<unsigned long long>(fraction));
    return text;
}

std::string formatBytes(uint64_t bytes)
{
    if (bytes < 1024) return std::to_string(bytes) + " B";
    static constexpr const char* kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
    double value = double(bytes) / 1024.0;
    int unit = 0;
    while (value >= 1024.0 && unit < 3) {
        value /= 1024.0;
        ++unit;
    }
    return printed("%.3f %s", value, kUnits[unit]);
}

std::string formatThroughput(uint64_t bytes, Duration ns)
{
    if (ns <= 0) return "-";
    const double bytesPerSecond = double(bytes) * 1e9 / double(ns);
    if (bytesPerSecond >= 1e9) return printed("%.3f %s", bytesPerSecond / 1e9, "GB/s");
    if (bytesPerSecond >= 1e6) return printed("%.3f %s", bytesPerSecond / 1e6, "MB/s");
    if (bytesPerSecond >= 1e3) return printed("%.3f %s", bytesPerSecond / 1e3, "kB/s");
    return printed("%.0f %s", bytesPerSecond, "B/s");
}

} // namespace sightline
