// Times as text: parsing "START:END" ranges typed by users (CLI --range, viewer --range) with
// units ns, us, ms, s (plain numbers are nanoseconds).
#pragma once

#include "time.h"

#include <optional>
#include <string_view>

namespace sightline {

// A time like "1.5s", "250us", "1200" (ns). Rounded to the nearest nanosecond.
std::optional<Timestamp> parseTime(std::string_view text);
// "START:END" into a half-open range; no value when malformed or END < START.
std::optional<TimeRange> parseTimeRange(std::string_view text);

} // namespace sightline
