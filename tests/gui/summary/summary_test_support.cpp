#include "summary_test_support.h"

#include <QTest>
#include <algorithm>
#include <cmath>

namespace sightline::testing {

bool waitForReports(const views::AnalysisSummary& summary, int ms)
{
    return QTest::qWaitFor([&] { return !summary.isBusy() && !summary.reports().empty(); }, ms);
}

TimeRange middleRange(const Trace& trace)
{
    const Duration quarter = trace.span.duration() / 4;
    return {trace.span.start + quarter, trace.span.start + 2 * quarter};
}

bool sameCells(const views::StatsTableModel& model, const StatsTable& table)
{
    if (model.rowCount() != int(table.rows.size()) || model.columnCount() != int(table.columns.size()))
        return false;
    // Cells equal, an unknown (NaN) value matching an unknown one.
    auto same = [](const StatsCell& a, const StatsCell& b) {
        const auto* x = std::get_if<double>(&a);
        const auto* y = std::get_if<double>(&b);
        return a == b || (x && y && std::isnan(*x) && std::isnan(*y));
    };
    for (int r = 0; r < model.rowCount(); ++r) {
        const auto cells = model.rowCells(r);
        const auto& want = table.rows[size_t(r)];
        if (cells.size() != want.size() || !std::equal(cells.begin(), cells.end(), want.begin(), same))
            return false;
    }
    return true;
}

} // namespace sightline::testing
