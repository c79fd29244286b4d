// The Analysis Summary's stats tables: equal to the stats engine over the whole trace and over
// a selection, equal to `sightline stats --range` run on the same report, sortable by a header
// click, and a click on a row lists exactly that row's events in the Events View.
#include "events_test_support.h"
#include "model/format/report_io.h"
#include "model/stats/stats_engine.h"
#include "summary_test_support.h"
#include "test_paths.h"
#include "timeline_fixture.h"
#include "views/events/events_table_model.h"
#include "views/summary/stats_panel.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QSignalSpy>
#include <QTableView>
#include <QTest>
#include <QToolButton>
#include <catch2/catch.hpp>
#include <cmath>
#include <memory>

using namespace sightline;
using namespace sightline::testing;
using namespace sightline::views;

namespace {

struct ShownSummary
{
    std::shared_ptr<const Trace> trace = generatedTrace();
    AnalysisSummary summary {trace};
    std::vector<std::unique_ptr<QAbstractItemModelTester>> testers;

    ShownSummary()
    {
        for (const StatsReportInfo& info : statsReportCatalog())
            testers.push_back(std::make_unique<QAbstractItemModelTester>(
                summary.stats()->model(info.id), QAbstractItemModelTester::FailureReportingMode::Fatal));
        summary.resize(1500, 900);
        summary.show();
        REQUIRE(waitForReports(summary));
    }

    void selectRange(TimeRange range)
    {
        summary.setSelectedRange(range);
        QTest::mouseClick(summary.selectionButton(), Qt::LeftButton);
        REQUIRE(summary.scope() == AnalysisSummary::Scope::Selection);
        REQUIRE(waitForReports(summary));
    }
};

// `sightline stats --format json [--range]` on a report file, as {report name: rows}.
QJsonObject cliStats(const std::filesystem::path& report, const std::optional<TimeRange>& range)
{
    QStringList arguments {QStringLiteral("stats"), QStringLiteral("--format"), QStringLiteral("json")};
    if (range)
        arguments << QStringLiteral("--range") << QStringLiteral("%1:%2").arg(range->start).arg(range->end);
    arguments << QString::fromStdString(report.string());
    QProcess cli;
    cli.start(QString::fromStdString((test::binDir() / "sightline").string()), arguments);
    REQUIRE(cli.waitForFinished(120000));
    INFO(cli.readAllStandardError().toStdString());
    REQUIRE(cli.exitCode() == 0);
    const QJsonDocument json = QJsonDocument::fromJson(cli.readAllStandardOutput());
    REQUIRE(json.isObject());
    return json.object();
}

// Each shown table equals the CLI's rows for it, column by column.
void requireEqualToCli(const AnalysisSummary& summary, const QJsonObject& cli)
{
    for (const StatsReportInfo& info : statsReportCatalog()) {
        const StatsTableModel& model = *summary.stats()->model(info.id);
        const QJsonArray rows
            = cli.value(QString::fromUtf8(info.name.data(), qsizetype(info.name.size()))).toArray();
        INFO(std::string(info.name));
        REQUIRE(model.rowCount() == rows.size());
        for (int r = 0; r < model.rowCount(); ++r) {
            const QJsonObject row = rows[r].toObject();
            for (int c = 0; c < model.columnCount(); ++c) {
                const StatsColumn& column = model.table().columns[size_t(c)];
                const QJsonValue value = row.value(QString::fromStdString(column.header));
                const StatsCell& cell = model.rowCells(r)[size_t(c)];
                if (const auto* i = std::get_if<int64_t>(&cell))
                    REQUIRE(value.toInteger() == *i);
                else if (const auto* d = std::get_if<double>(&cell))
                    REQUIRE(std::abs(value.toDouble() - *d) <= 1e-9 * std::max(1.0, std::abs(*d)));
                else
                    REQUIRE(value.toString().toStdString() == std::get<std::string>(cell));
            }
        }
    }
}

} // namespace

TEST_CASE("the whole-trace tables equal the reports of the stats engine")
{
    ShownSummary s;
    CHECK(s.summary.scope() == AnalysisSummary::Scope::WholeTrace);
    CHECK_FALSE(s.summary.selectionButton()->isEnabled()); // nothing selected yet
    const std::vector<StatsReport> expected = computeAllReports(*s.trace);
    for (const StatsReport& report : expected) {
        INFO(std::string(statsReportInfo(report.id).name));
        CHECK(sameCells(*s.summary.stats()->model(report.id), toTable(report)));
    }
    CHECK(s.summary.stats()->model(StatsReportId::CudaGpuKernSum)->rowCount() > 5);
}

TEST_CASE("the tables for a selection equal the stats engine over the same range")
{
    ShownSummary s;
    const TimeRange range = middleRange(*s.trace);
    s.selectRange(range);
    REQUIRE(s.summary.activeRange() == range);
    const std::vector<StatsReport> expected = computeAllReports(*s.trace, range);
    const std::vector<StatsReport> whole = computeAllReports(*s.trace);
    for (size_t i = 0; i < expected.size(); ++i) {
        INFO(std::string(statsReportInfo(expected[i].id).name));
        CHECK(sameCells(*s.summary.stats()->model(expected[i].id), toTable(expected[i])));
    }
    // The selection really narrows the counts.
    CHECK(expected[3].total() < whole[3].total());

    // Back to the whole trace with the toggle.
    QTest::mouseClick(s.summary.wholeTraceButton(), Qt::LeftButton);
    REQUIRE(waitForReports(s.summary));
    CHECK(sameCells(*s.summary.stats()->model(StatsReportId::CudaGpuKernSum), toTable(whole[3])));
    // Clearing the selection falls back to the whole trace and disables the toggle.
    s.selectRange(range);
    s.summary.setSelectedRange(std::nullopt);
    REQUIRE(waitForReports(s.summary));
    CHECK(s.summary.scope() == AnalysisSummary::Scope::WholeTrace);
    CHECK_FALSE(s.summary.selectionButton()->isEnabled());
}

TEST_CASE("the tables for a selection equal sightline stats --range on the same report")
{
    ShownSummary s;
    const auto report = test::scratchDir("summary_cli") / "generated.rep";
    REQUIRE(writeReport(*s.trace, report.string()).ok());
    const TimeRange range = middleRange(*s.trace);
    s.selectRange(range);
    requireEqualToCli(s.summary, cliStats(report, range));
    s.summary.setScope(AnalysisSummary::Scope::WholeTrace);
    REQUIRE(waitForReports(s.summary));
    requireEqualToCli(s.summary, cliStats(report, std::nullopt));
}

TEST_CASE("a header click sorts a stats table")
{
    ShownSummary s;
    QTableView* view = s.summary.stats()->view(StatsReportId::CudaApiSum);
    StatsTableModel* model = s.summary.stats()->model(StatsReportId::CudaApiSum);
    s.summary.stats()->showReport(StatsReportId::CudaApiSum);
    const int column = model->table().columnIndex("Max (ns)");
    REQUIRE(column >= 0);
    QHeaderView* header = view->horizontalHeader();
    const int x = header->sectionViewportPosition(column) + header->sectionSize(column) / 2;
    QTest::mouseClick(header->viewport(), Qt::LeftButton, {}, QPoint(x, header->height() / 2));
    const Qt::SortOrder order = header->sortIndicatorOrder();
    for (int r = 1; r < model->rowCount(); ++r) {
        const double a = model->index(r - 1, column).data(StatsTableModel::SortValueRole).toDouble();
        const double b = model->index(r, column).data(StatsTableModel::SortValueRole).toDouble();
        REQUIRE((order == Qt::AscendingOrder ? a <= b : a >= b));
    }
}

TEST_CASE("clicking a kernel row lists exactly the events of that kernel in the Events View")
{
    ShownSummary s;
    s.selectRange(middleRange(*s.trace));
    EventsView events(s.trace);
    QObject::connect(&s.summary, &AnalysisSummary::eventsRequested, &events, &EventsView::showRequest);
    QSignalSpy requested(&s.summary, &AnalysisSummary::eventsRequested);

    StatsTableModel* model = s.summary.stats()->model(StatsReportId::CudaGpuKernSum);
    QTableView* view = s.summary.stats()->view(StatsReportId::CudaGpuKernSum);
    s.summary.stats()->showReport(StatsReportId::CudaGpuKernSum);
    const int row = 1;
    const QString name = model->rowName(row);
    const int instances = int(model->index(row, model->table().columnIndex("Instances"))
                                  .data(StatsTableModel::SortValueRole)
                                  .toDouble());
    QTest::mouseClick(view->viewport(), Qt::LeftButton, {}, view->visualRect(model->index(row, 0)).center());
    REQUIRE(requested.count() == 1);
    REQUIRE(waitUntilIdle(events));

    CHECK(events.listedCount() == size_t(instances));
    for (int r = 0; r < events.model()->rowCount(); ++r) {
        const EventRef e = events.model()->eventAt(r);
        REQUIRE(nameOf(*s.trace, e) == name.toStdString());
        REQUIRE(s.summary.activeRange()->contains(s.trace->track(e.track).events.start[e.index]));
    }
}
