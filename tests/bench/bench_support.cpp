#include "bench_support.h"

#include <algorithm>
#include <cstdarg>
#include <fstream>
#include <malloc.h>
#include <unistd.h>

namespace sightline::bench {

uint64_t residentSetBytes()
{
    std::ifstream statm("/proc/self/statm");
    uint64_t sizePages = 0, residentPages = 0;
    if (!(statm >> sizePages >> residentPages)) return 0;
    return residentPages * uint64_t(sysconf(_SC_PAGESIZE));
}

void releaseFreeMemory()
{
    malloc_trim(0);
}

Percentiles percentiles(std::vector<int64_t>& samples)
{
    if (samples.empty()) return {};
    auto at = [&](double q) {
        size_t index = std::min(samples.size() - 1, size_t(q * double(samples.size())));
        std::nth_element(samples.begin(), samples.begin() + index, samples.end());
        return double(samples[index]);
    };
    Percentiles result;
    result.p50 = at(0.50);
    result.p99 = at(0.99);
    result.max = double(*std::max_element(samples.begin(), samples.end()));
    return result;
}

std::string shortCount(uint64_t value)
{
    if (value >= 1000000 && value % 1000000 == 0) return std::to_string(value / 1000000) + "M";
    if (value >= 1000 && value % 1000 == 0) return std::to_string(value / 1000) + "k";
    return std::to_string(value);
}

std::string format(const char* pattern, ...)
{
    char buffer[256];
    va_list args;
    va_start(args, pattern);
    std::vsnprintf(buffer, sizeof buffer, pattern, args);
    va_end(args);
    return buffer;
}

Cell infoCell(std::string text)
{
    return {std::move(text), Verdict::None};
}

Cell atMost(double value, double limit, std::string text)
{
    return {std::move(text), value <= limit ? Verdict::Pass : Verdict::Miss};
}

Cell spreadAtMost(double low, double high, double limit, std::string text)
{
    const Verdict verdict = high <= limit ? Verdict::Pass : low > limit ? Verdict::Miss : Verdict::Undecided;
    return {std::move(text), verdict};
}

Cell atLeast(double value, double limit, std::string text)
{
    return {std::move(text), value >= limit ? Verdict::Pass : Verdict::Miss};
}

void FigureTable::set(const std::string& figure, const std::string& target, size_t column, Cell cell)
{
    auto row = std::find_if(m_rows.begin(), m_rows.end(), [&](const Row& r) { return r.figure == figure; });
    if (row == m_rows.end()) {
        m_rows.push_back({figure, target, std::vector<Cell>(m_columns.size())});
        row = m_rows.end() - 1;
    }
    row->cells.at(column) = std::move(cell);
}

void FigureTable::print(std::FILE* out) const
{
    auto cellText = [](const Cell& cell) {
        switch (cell.verdict) {
        case Verdict::Pass:
            return cell.text + "  PASS";
        case Verdict::Miss:
            return cell.text + "  MISS";
        case Verdict::Undecided:
            return cell.text + "  UNDECIDED";
        default:
            return cell.text;
        }
    };
    size_t figureWidth = 6, targetWidth = 6;
    std::vector<size_t> widths;
    for (const std::string& column : m_columns)
        widths.push_back(column.size());
    for (const Row& row : m_rows) {
        figureWidth = std::max(figureWidth, row.figure.size());
        targetWidth = std::max(targetWidth, row.target.size());
        for (size_t c = 0; c < row.cells.size(); ++c)
            widths[c] = std::max(widths[c], cellText(row.cells[c]).size());
    }
    auto line = [&](const std::string& figure, const std::string& target,
                    const std::vector<std::string>& cells) {
        std::fprintf(out, "%-*s | %-*s", int(figureWidth), figure.c_str(), int(targetWidth), target.c_str());
        for (size_t c = 0; c < cells.size(); ++c)
            std::fprintf(out, " | %-*s", int(widths[c]), cells[c].c_str());
        std::fprintf(out, "\n");
    };
    line("Figure", "Target", m_columns);
    std::string rule = std::string(figureWidth, '-') + "-+-" + std::string(targetWidth, '-');
    for (size_t width : widths)
        rule += "-+-" + std::string(width, '-');
    std::fprintf(out, "%s\n", rule.c_str());
    for (const Row& row : m_rows) {
        std::vector<std::string> cells;
        for (const Cell& cell : row.cells)
            cells.push_back(cellText(cell));
        line(row.figure, row.target, cells);
    }
}

} // namespace sightline::bench
