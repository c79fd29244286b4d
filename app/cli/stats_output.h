// Writing stats tables (model/stats/stats_table.h) the way `sightline stats` prints them:
// an nsys-like text table (title line, headers with a dashed underline, right-aligned numbers
// with thousands separators), CSV with a header row, or JSON (an object keyed by report name,
// each an array of row objects keyed by column header). Pure formatting, no I/O of its own
// beyond the stream given; unit-tested in tests/unit/stats.
#pragma once

#include "model/stats/stats_table.h"

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::cli {

enum class StatsFormat { Table, Csv, Json };

std::optional<StatsFormat> parseStatsFormat(std::string_view text);

// "1,234,567"
std::string withThousands(int64_t value);
// "1,234.5" for decimals = 1; rounds half away from zero like printf.
std::string withThousands(double value, int decimals);

// The text table of one report. An empty table prints `emptyNote` under the title instead.
void writeTextTable(std::ostream& out, const StatsTable& table, std::string_view emptyNote);
// Header row then one row per line; text cells quoted when they hold a comma, quote or newline.
void writeCsv(std::ostream& out, const StatsTable& table);
// Every table, as {"name": [{"header": value, ...}, ...], ...}.
void writeJson(std::ostream& out, const std::vector<StatsTable>& tables);

} // namespace sightline::cli
