#include "summary_test_support.h"

#include <QTest>

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
    for (int r = 0; r < model.rowCount(); ++r)
        if (model.rowCells(r) != table.rows[size_t(r)]) return false;
    return true;
}

} // namespace sightline::testing
