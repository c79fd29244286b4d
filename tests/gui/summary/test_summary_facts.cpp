// The Analysis Summary's report facts and diagnostics on a generated report: what was run,
// where, on which GPUs and versions, the file, event counts by kind, and collector warnings.
#include "summary_test_support.h"
#include "timeline_fixture.h"
#include "views/summary/report_facts.h"

#include <QTreeWidget>
#include <catch2/catch.hpp>

using namespace sightline;
using namespace sightline::testing;
using namespace sightline::views;

namespace {

const Fact* findFact(const std::vector<FactSection>& sections, const QString& section, const QString& label)
{
    for (const FactSection& s : sections)
        if (s.title == section)
            for (const Fact& f : s.facts)
                if (f.label == label) return &f;
    return nullptr;
}

// The tree item's value for a label under a top-level section, or a null string.
QString treeValue(const QTreeWidget& tree, const QString& section, const QString& label)
{
    for (int i = 0; i < tree.topLevelItemCount(); ++i) {
        const QTreeWidgetItem* top = tree.topLevelItem(i);
        if (top->text(0) != section) continue;
        for (int c = 0; c < top->childCount(); ++c)
            if (top->child(c)->text(0) == label) return top->child(c)->text(1);
    }
    return {};
}

} // namespace

TEST_CASE("report facts list the target, host, GPUs, versions, file and event counts")
{
    const auto trace = generatedTrace();
    const auto facts = reportFacts(*trace, {QStringLiteral("/data/run1.rep"), 123456789});
    const ReportMetadata& m = trace->metadata;

    REQUIRE(findFact(facts, QStringLiteral("Target"), QStringLiteral("Command line")));
    CHECK(findFact(facts, QStringLiteral("Target"), QStringLiteral("Command line"))->value
        == QString::fromStdString(m.commandLine[0] + " " + m.commandLine[1]));
    CHECK(findFact(facts, QStringLiteral("Target"), QStringLiteral("Working directory"))->value
        == QString::fromStdString(m.workingDirectory));
    CHECK(findFact(facts, QStringLiteral("Host"), QStringLiteral("Host name"))->value
        == QString::fromStdString(m.hostname));
    CHECK(findFact(facts, QStringLiteral("Host"), QStringLiteral("CPU"))
              ->value.contains(QString::number(m.cpuCores)));
    CHECK(findFact(facts, QStringLiteral("Versions"), QStringLiteral("NVIDIA driver"))->value
        == QString::fromStdString(m.driverVersion));
    CHECK(findFact(facts, QStringLiteral("Versions"), QStringLiteral("CUPTI"))->value
        == QString::fromStdString(m.cuptiVersion));
    CHECK(findFact(facts, QStringLiteral("Session"), QStringLiteral("Start time (UTC)"))
              ->value.endsWith(QStringLiteral("UTC")));
    CHECK(findFact(facts, QStringLiteral("Report file"), QStringLiteral("Size"))
              ->value.contains(QStringLiteral("123,456,789 bytes")));

    // Each GPU with its properties.
    REQUIRE(trace->gpus.size() >= 2);
    const Fact* gpu1 = findFact(facts, QStringLiteral("GPUs"), QStringLiteral("GPU 1"));
    REQUIRE(gpu1);
    CHECK(gpu1->value == QString::fromStdString(trace->gpus[1].name));
    bool sawCapability = false, sawUuid = false;
    for (const Fact& d : gpu1->details) {
        sawCapability |= d.label == QStringLiteral("Compute capability")
            && d.value
                == QStringLiteral("%1.%2").arg(trace->gpus[1].computeMajor).arg(trace->gpus[1].computeMinor);
        sawUuid
            |= d.label == QStringLiteral("UUID") && d.value == QString::fromStdString(trace->gpus[1].uuid);
    }
    CHECK(sawCapability);
    CHECK(sawUuid);

    // Event counts by kind add up to the total.
    CHECK(findFact(facts, QStringLiteral("Events"), QStringLiteral("Total"))->value
        == groupedNumber(qint64(trace->eventCount())));
    CHECK(findFact(facts, QStringLiteral("Events"), QStringLiteral("CUDA kernels"))->value
        == groupedNumber(qint64(trace->eventCount(TrackKind::Kernels))));
    // Options are listed key by key.
    REQUIRE_FALSE(m.options.empty());
    CHECK(findFact(facts, QStringLiteral("Collection options"), QString::fromStdString(m.options[0].first))
              ->value
        == QString::fromStdString(m.options[0].second));
}

TEST_CASE("the summary shows the facts and the diagnostics of the report")
{
    auto trace = std::make_shared<Trace>(*generatedTrace(20000));
    trace->diagnostics.push_back(
        {Severity::Warning, "collector", "1,024 activity records were dropped because a buffer was full."});
    trace->diagnostics.push_back(
        {Severity::Error, "reader", "The report was cut short; the last 3 chunks were lost."});
    AnalysisSummary summary(trace, {QStringLiteral("/data/run1.rep"), 2048});
    REQUIRE(waitForReports(summary));
    const QTreeWidget& tree = *summary.facts();
    CHECK(treeValue(tree, QStringLiteral("Host"), QStringLiteral("Host name"))
        == QString::fromStdString(trace->metadata.hostname));
    CHECK(treeValue(tree, QStringLiteral("Report file"), QStringLiteral("Path"))
        == QStringLiteral("/data/run1.rep"));
    CHECK(treeValue(tree, QStringLiteral("Diagnostics"), QStringLiteral("Warning (collector)"))
              .contains(QStringLiteral("dropped")));
    CHECK(treeValue(tree, QStringLiteral("Diagnostics"), QStringLiteral("Error (reader)"))
              .contains(QStringLiteral("cut short")));
}

TEST_CASE("report facts leave out what an imported trace does not record")
{
    Trace bare;
    const auto facts = reportFacts(bare);
    CHECK_FALSE(findFact(facts, QStringLiteral("Host"), QStringLiteral("Host name")));
    CHECK_FALSE(findFact(facts, QStringLiteral("Versions"), QStringLiteral("CUDA")));
    REQUIRE(findFact(facts, QStringLiteral("Events"), QStringLiteral("Total")));
    CHECK(findFact(facts, QStringLiteral("Events"), QStringLiteral("Total"))->value == QStringLiteral("0"));
    CHECK(commandLineText({"python", "train.py", "--name", "my run"})
        == QStringLiteral("python train.py --name 'my run'"));
    CHECK(utcText(0).isEmpty());
    CHECK(utcText(1700000000123000000) == QStringLiteral("2023-11-14 22:13:20.123 UTC"));
}
