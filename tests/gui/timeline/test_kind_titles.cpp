// Every kind is named by the table of event kinds (model/core/event_kinds.h) wherever a view
// writes it: the timeline's track rows and the Analysis Summary's event counts, on a generated
// report that holds every kind.
#include "timeline_fixture.h"
#include "views/summary/report_facts.h"
#include "views/timeline/rows/row_tree.h"

#include <QRegularExpression>
#include <catch2/catch.hpp>
#include <set>

using namespace sightline;
using namespace sightline::views;

namespace {

// The row title with what a row adds to it: a busy share before it ("12.5% Kernels"), an NVTX
// domain after it ("NVTX (my domain)").
bool titledBy(const QString& label, const QString& title)
{
    static const QRegularExpression share(QStringLiteral("^\\d+\\.\\d% "));
    QString bare = label;
    bare.remove(share);
    return bare == title || bare.startsWith(title + QStringLiteral(" ("));
}

} // namespace

TEST_CASE("The timeline titles each track's row with its kind's row title")
{
    const auto trace = testing::generatedTrace();
    const RowTree tree = RowTree::build(*trace);
    std::set<TrackKind> seen;
    for (const RowNode& node : tree.nodes()) {
        if (node.whenCollapsed != RowContent::Lanes || node.kind == RowKind::NvtxProjection) continue;
        const TrackKind kind = trace->track(node.tracks.front()).key.kind;
        const QString title = QString::fromUtf8(eventKind(kind).rowTitle);
        INFO(node.label.toStdString() << " titled " << title.toStdString());
        CHECK(titledBy(node.label, title));
        seen.insert(kind);
    }
    CHECK(seen.size() == size_t(kTrackKindCount));
}

TEST_CASE("The Analysis Summary counts each kind's events under its kind's title")
{
    const auto trace = testing::generatedTrace();
    std::vector<QString> counted;
    for (const FactSection& section : reportFacts(*trace))
        if (section.title == QStringLiteral("Events"))
            for (const Fact& fact : section.facts)
                if (fact.label != QStringLiteral("Total")) counted.push_back(fact.label);
    std::vector<QString> expected;
    for (const EventKindInfo& kind : kEventKinds)
        if (trace->eventCount(kind.kind) > 0) expected.push_back(QString::fromUtf8(kind.title));
    CHECK(expected.size() == size_t(kTrackKindCount));
    CHECK(counted == expected);
}
