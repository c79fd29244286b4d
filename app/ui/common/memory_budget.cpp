#include "app/ui/common/memory_budget.h"

#include <QRegularExpression>
#include <atomic>
#include <cmath>
#include <unistd.h>

namespace sightline::ui {

namespace {

std::atomic<uint64_t> g_budget {0}; // 0: not chosen yet

uint64_t quarterOfPhysicalMemory()
{
    const long pages = sysconf(_SC_PHYS_PAGES), pageSize = sysconf(_SC_PAGESIZE);
    if (pages <= 0 || pageSize <= 0) return uint64_t(4) << 30;
    return uint64_t(pages) * uint64_t(pageSize) / 4;
}

} // namespace

Result<uint64_t> parseMemorySize(const QString& text, const QString& what)
{
    static const QRegularExpression pattern(QStringLiteral(R"(^\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?\s*$)"),
        QRegularExpression::CaseInsensitiveOption);
    const QRegularExpressionMatch match = pattern.match(text);
    const double number = match.hasMatch() ? match.captured(1).toDouble() : -1;
    const QString unit = match.captured(2).toUpper();
    const int shift = unit == QLatin1String("K") ? 10
        : unit == QLatin1String("M")             ? 20
        : unit == QLatin1String("G")             ? 30
        : unit == QLatin1String("T")             ? 40
                                                 : 0;
    const double bytes = number * std::ldexp(1.0, shift);
    if (number <= 0 || bytes < 1 || bytes > 0x1p62)
        return Result<uint64_t>::failure(
            QStringLiteral("%1 '%2' is not a memory size; give one such as 8G or 512M.")
                .arg(what, text)
                .toStdString());
    return uint64_t(bytes);
}

uint64_t memoryBudget()
{
    const uint64_t chosen = g_budget.load();
    return chosen ? chosen : quarterOfPhysicalMemory();
}

void setMemoryBudget(uint64_t bytes)
{
    g_budget = bytes;
}

} // namespace sightline::ui
