// Small tools shared by the benchmarks: a stopwatch, percentiles, the process's resident set
// size, and a results table that prints each figure with its target and PASS/MISS per column.
// Benchmarks only print; they never fail on a timing.
#pragma once

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

namespace sightline::bench {

class Stopwatch
{
public:
    Stopwatch()
        : m_start(std::chrono::steady_clock::now())
    { }
    double seconds() const
    {
        return std::chrono::duration<double>(std::chrono::steady_clock::now() - m_start).count();
    }
    int64_t nanoseconds() const
    {
        return std::chrono::duration_cast<std::chrono::nanoseconds>(
            std::chrono::steady_clock::now() - m_start)
            .count();
    }

private:
    std::chrono::steady_clock::time_point m_start;
};

// Bytes of this process currently resident in RAM (from /proc/self/statm); 0 if unknown.
uint64_t residentSetBytes();
// Gives freed heap memory back to the system, so that resident set growth measures live data.
void releaseFreeMemory();

struct Percentiles
{
    double p50 = 0;
    double p99 = 0;
    double max = 0;
};
// Of a sample (reordered in place); all zero for an empty one.
Percentiles percentiles(std::vector<int64_t>& samples);

// "1M", "10M", "250k", "1234".
std::string shortCount(uint64_t value);
std::string format(const char* pattern, ...) __attribute__((format(printf, 1, 2)));

enum class Verdict : uint8_t { None, Pass, Miss, Undecided };

struct Cell
{
    std::string text;
    Verdict verdict = Verdict::None;
};

Cell infoCell(std::string text);
Cell atMost(double value, double limit, std::string text);
// A figure with its spread [low, high]: Pass when all of it is at most `limit`, Miss when all of
// it is above, Undecided when the limit lies within (the noise is too wide to tell).
Cell spreadAtMost(double low, double high, double limit, std::string text);
Cell atLeast(double value, double limit, std::string text);

// Rows are figures, in the order first set; columns are the sizes measured.
class FigureTable
{
public:
    explicit FigureTable(std::vector<std::string> columns)
        : m_columns(std::move(columns))
    { }
    void set(const std::string& figure, const std::string& target, size_t column, Cell cell);
    void print(std::FILE* out) const;

private:
    struct Row
    {
        std::string figure;
        std::string target;
        std::vector<Cell> cells;
    };
    std::vector<std::string> m_columns;
    std::vector<Row> m_rows;
};

} // namespace sightline::bench
