// Times as text, both ways, for every layer that reads or shows them: parsing times and
// "START:END" ranges typed by users (CLI --range, viewer --range) with units ns, us, ms, s
// (plain numbers are nanoseconds), and formatting durations in an adaptive unit ("850 ns",
// "12.346 µs", "1.500 s"), session-relative timestamps in seconds with as many decimals as a
// resolution needs, byte counts and throughputs. Parsing lives in time_text.cpp, formatting
// in time_format.cpp.
#pragma once

#include "model/core/time.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace sightline {

// A time like "1.5s", "250us", "1200" (ns). Rounded to the nearest nanosecond.
std::optional<Timestamp> parseTime(std::string_view text);
// "START:END" into a half-open range; no value when malformed or END < START.
std::optional<TimeRange> parseTimeRange(std::string_view text);

// "0 ns", "850 ns", "12.346 µs", "123.301 ms", "2.500 s"; negative values keep their sign.
std::string formatDuration(Duration ns);

// Seconds since session start with the decimals that show `resolution` (ns): resolution 1 ms
// gives "12.345 s", 1 ns gives "12.345678901 s". At least one decimal, at most nine.
std::string formatTimestamp(Timestamp t, Duration resolution = 1);

// "512 B", "4.000 KiB", "1.500 MiB", "2.250 GiB".
std::string formatBytes(uint64_t bytes);

// "11.234 GB/s" (decimal units, as Nsight Systems shows throughput); "-" for a zero duration.
std::string formatThroughput(uint64_t bytes, Duration ns);

// The number of decimals formatTimestamp uses for a resolution.
int decimalsForResolution(Duration resolution);

} // namespace sightline
