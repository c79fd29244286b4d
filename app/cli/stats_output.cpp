#include "app/cli/stats_output.h"

#include "model/text/csv_writer.h"
#include "model/text/json_string.h"
#include "model/text/text_format.h"
#include "model/text/utf8_repair.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

namespace sightline::cli {
namespace {

// The shortest text that reads back as the same double ("0.1", "33.333333333333336").
std::string exactReal(double value)
{
    char buffer[64];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, result.ptr);
}

// A cell as the text table shows it (names repaired as CSV and JSON repair them).
std::string displayCell(const StatsCell& cell, const StatsColumn& column)
{
    if (const auto* i = std::get_if<int64_t>(&cell)) return withThousands(*i);
    if (const auto* d = std::get_if<double>(&cell)) return withThousands(*d, column.decimals);
    return repairUtf8(std::get<std::string>(cell));
}

// A cell as CSV and scripts want it: no separators, reals at full precision.
std::string plainCell(const StatsCell& cell)
{
    if (const auto* i = std::get_if<int64_t>(&cell)) return std::to_string(*i);
    if (const auto* d = std::get_if<double>(&cell)) return exactReal(*d);
    return std::get<std::string>(cell);
}

std::string csvField(std::string_view text)
{
    std::string out;
    appendCsvField(out, text);
    return out;
}

std::string jsonString(std::string_view text)
{
    std::string out;
    appendJsonString(out, text);
    return out;
}

std::string jsonValue(const StatsCell& cell)
{
    if (const auto* d = std::get_if<double>(&cell)) return std::isfinite(*d) ? exactReal(*d) : "null";
    if (const auto* s = std::get_if<std::string>(&cell)) return jsonString(*s);
    return std::to_string(std::get<int64_t>(cell));
}

void writeAligned(std::ostream& out, const std::vector<std::string>& texts, const StatsTable& table,
    const std::vector<size_t>& widths)
{
    std::string line = " ";
    for (size_t c = 0; c < texts.size(); ++c) {
        const std::string& text = texts[c];
        const size_t pad = widths[c] - std::min(widths[c], text.size());
        const bool last = c + 1 == texts.size();
        if (c > 0) line += "  ";
        if (table.columns[c].kind == CellKind::Text) {
            line += text;
            if (!last) line.append(pad, ' ');
        } else {
            line.append(pad, ' ');
            line += text;
        }
    }
    out << line << '\n';
}

} // namespace

std::optional<StatsFormat> parseStatsFormat(std::string_view text)
{
    if (text == "table") return StatsFormat::Table;
    if (text == "csv") return StatsFormat::Csv;
    if (text == "json") return StatsFormat::Json;
    return std::nullopt;
}

std::string withThousands(int64_t value)
{
    return groupDigits(std::to_string(value));
}

std::string withThousands(double value, int decimals)
{
    char buffer[512];
    std::snprintf(buffer, sizeof buffer, "%.*f", decimals, value);
    const std::string_view text(buffer);
    const size_t point = text.find('.');
    if (point == std::string_view::npos) return groupDigits(text);
    return groupDigits(text.substr(0, point)) + std::string(text.substr(point));
}

void writeTextTable(std::ostream& out, const StatsTable& table, std::string_view emptyNote)
{
    out << " ** " << table.title << " (" << table.name << "):\n\n";
    if (table.rows.empty()) {
        out << ' ' << emptyNote << "\n\n";
        return;
    }

    std::vector<std::string> headers;
    std::vector<size_t> widths;
    for (const StatsColumn& column : table.columns) {
        headers.push_back(column.header);
        widths.push_back(column.header.size());
    }
    std::vector<std::vector<std::string>> rows;
    rows.reserve(table.rows.size());
    for (const std::vector<StatsCell>& cells : table.rows) {
        std::vector<std::string>& texts = rows.emplace_back();
        for (size_t c = 0; c < cells.size(); ++c) {
            texts.push_back(displayCell(cells[c], table.columns[c]));
            widths[c] = std::max(widths[c], texts.back().size());
        }
    }

    writeAligned(out, headers, table, widths);
    std::vector<std::string> rules;
    for (size_t width : widths)
        rules.emplace_back(width, '-');
    writeAligned(out, rules, table, widths);
    for (const std::vector<std::string>& texts : rows)
        writeAligned(out, texts, table, widths);
    out << '\n';
}

void writeCsv(std::ostream& out, const StatsTable& table)
{
    for (size_t c = 0; c < table.columns.size(); ++c)
        out << (c > 0 ? "," : "") << csvField(table.columns[c].header);
    out << '\n';
    for (const std::vector<StatsCell>& cells : table.rows) {
        for (size_t c = 0; c < cells.size(); ++c)
            out << (c > 0 ? "," : "") << csvField(plainCell(cells[c]));
        out << '\n';
    }
}

void writeJson(std::ostream& out, const std::vector<StatsTable>& tables)
{
    out << "{";
    for (size_t t = 0; t < tables.size(); ++t) {
        const StatsTable& table = tables[t];
        out << (t > 0 ? ",\n " : "\n ") << jsonString(table.name) << ": [";
        for (size_t r = 0; r < table.rows.size(); ++r) {
            out << (r > 0 ? ",\n  {" : "\n  {");
            for (size_t c = 0; c < table.columns.size(); ++c)
                out << (c > 0 ? ", " : "") << jsonString(table.columns[c].header) << ": "
                    << jsonValue(table.rows[r][c]);
            out << "}";
        }
        out << (table.rows.empty() ? "]" : "\n ]");
    }
    out << "\n}\n";
}

} // namespace sightline::cli
