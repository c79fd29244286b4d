// Shared by the Analysis Summary tests: waiting for the summary's stats, a selection range in
// the middle of a generated trace, and comparing a shown stats table with a computed one.
#pragma once

#include "model/stats/stats_table.h"
#include "views/summary/analysis_summary.h"
#include "views/summary/stats_table_model.h"

namespace sightline::testing {

// Waits (processing events) until the summary shows the reports of its current scope.
bool waitForReports(const views::AnalysisSummary& summary, int ms = 60000);

// A range over the second quarter of the trace's span.
TimeRange middleRange(const Trace& trace);

// Every cell of the model (in its current row order) equals the table's, in the same order.
bool sameCells(const views::StatsTableModel& model, const StatsTable& table);

} // namespace sightline::testing
