// Every kind is named by the table of event kinds (model/core/event_kinds.h) wherever the model
// writes it: the Events View's track titles, the CSV files and their columns, the Chrome trace's
// categories and the Nsight Systems tables. Each check reads what an exporter wrote back from
// its file, for a trace that holds every kind.
#include "../support/file_bytes.h"
#include "export_fixture.h"
#include "mini_json.h"
#include "model/events/event_cells.h"
#include "model/events/event_columns.h"
#include "model/export/exporters.h"
#include "model/nsys/sqlite_schema.h"
#include "sqlite_query.h"
#include "tests/test_paths.h"

#include <catch2/catch.hpp>
#include <filesystem>
#include <map>

using namespace sightline;
using namespace sightline::test;

namespace {

std::optional<TrackId> firstTrackOf(const Trace& trace, TrackKind kind)
{
    for (uint32_t t = 0; t < trace.tracks.size(); ++t)
        if (trace.tracks[t].key.kind == kind && trace.tracks[t].size() > 0) return TrackId(t);
    return std::nullopt;
}

bool headerHas(const std::string& header, EventColumn column)
{
    return header.find(csvHeader(column)) != std::string::npos;
}

} // namespace

TEST_CASE("The Events View titles a track of each kind with the kind's label")
{
    const Trace trace = makeEveryKindTrace();
    const EventCells cells(trace);
    for (const EventKindInfo& kind : kEventKinds) {
        const std::optional<TrackId> track = firstTrackOf(trace, kind.kind);
        INFO(kind.label);
        REQUIRE(track);
        CHECK(cells.trackTitle(*track).starts_with(std::string(kind.label) + " \u00b7 "));
    }
}

TEST_CASE("The CSV export writes each kind to the table's file, with the kind's columns")
{
    const Trace trace = makeEveryKindTrace();
    const std::filesystem::path folder = scratchDir("kind_csv_names");
    const std::string error = exportCsv(trace, folder.string() + "/", {}).error();
    INFO(error);
    REQUIRE(error.empty());
    const std::vector<std::string> paths = csvExportPaths(folder.string() + "/");
    REQUIRE(paths.size() == kEventKinds.size());
    for (size_t k = 0; k < kEventKinds.size(); ++k) {
        const EventKindInfo& kind = kEventKinds[k];
        INFO(kind.label);
        CHECK(std::filesystem::path(paths[k]).filename() == kind.csvFile);
        const std::string text = readFileBytes((folder / kind.csvFile).string());
        REQUIRE(!text.empty());
        const std::string header = text.substr(0, text.find('\n'));
        CHECK(headerHas(header, EventColumn::Grid) == kind.columns.launch);
        CHECK(headerHas(header, EventColumn::CopyKind) == kind.columns.transfer);
        CHECK(headerHas(header, EventColumn::ReturnValue) == kind.columns.returnValue);
        CHECK(headerHas(header, EventColumn::Domain) == kind.columns.domain);
        CHECK(headerHas(header, EventColumn::Correlation) == kind.columns.correlation);
        CHECK(headerHas(header, EventColumn::DeviceContext) == (kind.side == KindSide::Gpu));
    }
}

TEST_CASE("The Chrome trace export puts each kind's events under the table's categories")
{
    const Trace trace = makeEveryKindTrace();
    const std::filesystem::path path = scratchDir("kind_chrome_names") / "trace.json";
    const std::string error = exportChromeTrace(trace, path.string(), {}).error();
    INFO(error);
    REQUIRE(error.empty());
    std::string parseError;
    const std::optional<JsonValue> document = parseJson(readFileBytes(path.string()), parseError);
    INFO(parseError);
    REQUIRE(document);
    std::map<std::string, size_t> eventsOfCategory; // an async range's "e" half is not an event
    for (const JsonValue& event : document->find("traceEvents")->items)
        if (event.str("ph") != "e" && event.str("ph") != "M") ++eventsOfCategory[event.str("cat")];
    for (const EventKindInfo& kind : kEventKinds) {
        INFO(kind.label);
        size_t written = eventsOfCategory[kind.chromeCategory];
        if (*kind.chromeCategoryVariant != '\0') {
            CHECK(eventsOfCategory[kind.chromeCategoryVariant] > 0);
            written += eventsOfCategory[kind.chromeCategoryVariant];
        }
        CHECK(written == trace.eventCount(kind.kind));
    }
}

TEST_CASE("The SQLite export writes each kind's events to the table's nsys tables")
{
    const Trace trace = makeEveryKindTrace();
    const SqliteFile db(exportToScratch(trace, "kind_sqlite_names"));
    const auto rowsOf = [&](const std::string& table) {
        return size_t(db.rows("SELECT COUNT(*) FROM " + table).front()[0].integer);
    };
    for (const EventKindInfo& kind : kEventKinds) {
        INFO(kind.label);
        size_t written = rowsOf(kind.nsysTable);
        if (*kind.nsysTableVariant != '\0') {
            CHECK(rowsOf(kind.nsysTableVariant) > 0);
            written += rowsOf(kind.nsysTableVariant);
        }
        if (kind.kind == TrackKind::Nvtx) // nsys lists each named domain's creation among the ranges
            written -= rowsOf(std::string(kind.nsysTable)
                + " WHERE eventType = " + std::to_string(nsys::kEventTypeNvtxDomainCreate));
        CHECK(written == trace.eventCount(kind.kind));
    }
}
