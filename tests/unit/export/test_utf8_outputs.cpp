// Names that are not UTF-8 (possible from a profiled program or a foreign file) come out of every
// output as well-formed UTF-8, each ill-formed sequence replaced by U+FFFD: the repair rule
// itself (model/text/utf8_repair.h), then a trace whose kernel, NVTX, CUDA API, process and
// thread names hold such bytes, exported to CSV, Chrome trace JSON and SQLite and written as
// `sightline stats` tables, CSV and JSON. Well-formed names pass unchanged. Each output is
// checked with a decoder of this file's own, not with the one under test.
#include "app/cli/stats_output.h"
#include "mini_json.h"
#include "model/construct/trace_builder.h"
#include "model/export/exporters.h"
#include "model/stats/stats_engine.h"
#include "model/stats/stats_table.h"
#include "model/text/utf8_repair.h"
#include "sqlite_query.h"
#include "tests/test_paths.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace sightline;
using namespace sightline::test;

namespace {

const std::string kFffd = "\xEF\xBF\xBD";

// True when `text` is well-formed UTF-8 (RFC 3629): every sequence decodes, with no overlong
// form, surrogate, code point past U+10FFFF, stray or missing continuation byte.
bool wellFormedUtf8(std::string_view text)
{
    size_t i = 0;
    while (i < text.size()) {
        const unsigned char lead = (unsigned char)text[i];
        size_t length = 1;
        uint32_t cp = lead, minimum = 0;
        if (lead >= 0x80) {
            if ((lead & 0xE0) == 0xC0)
                length = 2, cp = lead & 0x1F, minimum = 0x80;
            else if ((lead & 0xF0) == 0xE0)
                length = 3, cp = lead & 0x0F, minimum = 0x800;
            else if ((lead & 0xF8) == 0xF0)
                length = 4, cp = lead & 0x07, minimum = 0x10000;
            else
                return false;
        }
        if (i + length > text.size()) return false;
        for (size_t k = 1; k < length; ++k) {
            const unsigned char c = (unsigned char)text[i + k];
            if ((c & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (c & 0x3F);
        }
        if (cp < minimum || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += length;
    }
    return true;
}

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

// Each name as the trace holds it and as every output must write it.
struct NameCase
{
    std::string raw;
    std::string written;
};

const NameCase kKernelBadBytes {"gemm\xFF\xFE_tile", "gemm" + kFffd + kFffd + "_tile"};
const NameCase kKernelCutShort {"reduce\xE2\x9C", "reduce" + kFffd}; // U+2713 without its last byte
const NameCase kKernelValid {"\xC3\x9Cn\xC3\xAF"
                             "code \xE2\x9C\x93",
    "\xC3\x9Cn\xC3\xAF"
    "code \xE2\x9C\x93"};
const NameCase kNvtxCutShort {"step \xF0\x9F\x98 forward", "step " + kFffd + " forward"}; // U+1F600 cut
const NameCase kNvtxValid {"\xC3\x9Cn\xC3\xAF"
                           "code \xF0\x9F\x98\x80",
    "\xC3\x9Cn\xC3\xAF"
    "code \xF0\x9F\x98\x80"};
const NameCase kApiOverlong {"cudaLaunch\xC0\xAF", "cudaLaunch" + kFffd + kFffd};
const NameCase kProcess {"proc\xE2\x9C", "proc" + kFffd};
const NameCase kThread {"worker\xFF", "worker" + kFffd};

const NameCase* const kEventNames[]
    = {&kKernelBadBytes, &kKernelCutShort, &kKernelValid, &kNvtxCutShort, &kNvtxValid, &kApiOverlong};

Trace makeBadNamesTrace()
{
    constexpr Pid kPid {77};
    constexpr Tid kTid {78};
    TraceBuilder b;
    b.addProcess({kPid, kProcess.raw, {}});
    b.addThread({kPid, kTid, kThread.raw});
    const TrackId api = b.hostTrack(TrackKind::CudaApi, kPid, kTid);
    const TrackId nvtx = b.hostTrack(TrackKind::Nvtx, kPid, kTid);
    const TrackId kernels = b.gpuTrack(TrackKind::Kernels, kPid, DeviceId(0), ContextId(1), StreamId(7));
    const NameCase* const kernelNames[] = {&kKernelBadBytes, &kKernelCutShort, &kKernelValid};
    for (uint32_t i = 0; i < 3; ++i) {
        const Timestamp t = 1'000 + Timestamp(i) * 10'000;
        const CorrelationId id(i + 1);
        b.add(api, ApiCall {t, t + 2'000, b.intern(kApiOverlong.raw), id, {ApiClass::Runtime, 0}});
        KernelEvent k;
        k.start = t + 3'000;
        k.end = t + 6'000;
        k.name = b.intern(kernelNames[i]->raw);
        k.launch.shortName = k.name;
        k.correlation = id;
        b.add(kernels, k);
    }
    NvtxAttributes range;
    range.endThread = kTid;
    b.add(nvtx, NvtxEvent {500, 15'000, b.intern(kNvtxCutShort.raw), range});
    b.add(nvtx, NvtxEvent {16'000, 30'000, b.intern(kNvtxValid.raw), range});
    return b.build(1);
}

// Every string of a JSON document (member names and values), decoded.
void collectStrings(const JsonValue& value, std::set<std::string>& out)
{
    if (value.type == JsonValue::Type::String) out.insert(value.text);
    for (const JsonValue& item : value.items)
        collectStrings(item, out);
    for (const auto& [key, member] : value.members) {
        out.insert(key);
        collectStrings(member, out);
    }
}

std::set<std::string> stringsOfJson(const std::string& document)
{
    std::string error;
    const std::optional<JsonValue> parsed = parseJson(document, error); // rejects ill-formed UTF-8
    INFO(error);
    REQUIRE(parsed);
    std::set<std::string> strings;
    collectStrings(*parsed, strings);
    return strings;
}

bool contains(const std::string& text, const std::string& part)
{
    return text.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("UTF-8 repair replaces each maximal ill-formed subpart by one U+FFFD", "[export][utf8]")
{
    // Expected values follow the Unicode standard's practice (also Python's errors="replace").
    CHECK(repairUtf8("\xFF\xFE") == kFffd + kFffd); // two bytes that start nothing
    CHECK(repairUtf8("a\xE2\x9C") == "a" + kFffd); // a 3-byte character cut short at the end
    CHECK(repairUtf8("\xE2\x9C"
                     "b")
        == kFffd + "b"); // ... and before an ASCII byte
    CHECK(repairUtf8("\xF0\x9F\x98"
                     "A")
        == kFffd + "A"); // a 4-byte character cut short
    CHECK(repairUtf8("\xC0\xAF") == kFffd + kFffd); // an overlong '/'
    CHECK(repairUtf8("\xE0\x80\x80") == kFffd + kFffd + kFffd); // an overlong NUL
    CHECK(repairUtf8("\xED\xA0\x80") == kFffd + kFffd + kFffd); // a surrogate
    CHECK(repairUtf8("\xF4\x90\x80\x80") == kFffd + kFffd + kFffd + kFffd); // past U+10FFFF
    CHECK(repairUtf8("\x80x\xBF") == kFffd + "x" + kFffd); // stray continuation bytes
    for (const NameCase* name : kEventNames) {
        CHECK(repairUtf8(name->raw) == name->written);
        CHECK(wellFormedUtf8(name->written));
        CHECK(isValidUtf8(name->written));
        CHECK(isValidUtf8(name->raw) == (name->raw == name->written));
    }
    const std::string wellFormed = "plain, \"ASCII\"\n\xC3\xA9\xE2\x82\xAC\xF0\x9F\x98\x80\xF4\x8F\xBF\xBF";
    CHECK(repairUtf8(wellFormed) == wellFormed);
    CHECK(repairUtf8("") == "");
}

TEST_CASE("CSV export writes names that are not UTF-8 repaired", "[export][utf8][csv]")
{
    const Trace trace = makeBadNamesTrace();
    const auto dir = scratchDir("utf8_csv");
    const std::string error = exportCsv(trace, dir.string() + "/", {}).error();
    INFO(error);
    REQUIRE(error.empty());
    std::string all;
    for (const std::string& path : csvExportPaths(dir.string() + "/")) {
        const std::string text = readFile(path);
        INFO(path);
        CHECK(wellFormedUtf8(text));
        all += text;
    }
    const std::string kernels = readFile(dir / "kernels.csv");
    for (const NameCase* name : {&kKernelBadBytes, &kKernelCutShort, &kKernelValid})
        CHECK(contains(kernels, "\n" + name->written + ","));
    CHECK(contains(readFile(dir / "nvtx.csv"), "\n" + kNvtxCutShort.written + ","));
    CHECK(contains(readFile(dir / "nvtx.csv"), "\n" + kNvtxValid.written + ","));
    CHECK(contains(readFile(dir / "cuda_api.csv"), "\n" + kApiOverlong.written + ","));
    CHECK_FALSE(contains(all, kKernelBadBytes.raw));
}

TEST_CASE("Chrome trace JSON export writes names that are not UTF-8 repaired", "[export][utf8][json]")
{
    const Trace trace = makeBadNamesTrace();
    const auto path = scratchDir("utf8_json") / "trace.json";
    const std::string error = exportChromeTrace(trace, path.string(), {}).error();
    INFO(error);
    REQUIRE(error.empty());
    const std::string document = readFile(path);
    CHECK(wellFormedUtf8(document));
    const std::set<std::string> strings = stringsOfJson(document);
    for (const NameCase* name : kEventNames)
        CHECK(strings.count(name->written) == 1);
    CHECK(strings.count(kProcess.written) == 1);
    CHECK(strings.count(kThread.written) == 1);
}

TEST_CASE("SQLite export stores names that are not UTF-8 repaired in TEXT columns", "[export][utf8][sqlite]")
{
    const Trace trace = makeBadNamesTrace();
    const auto path = scratchDir("utf8_sqlite") / "trace.sqlite";
    const std::string error = exportSqlite(trace, path.string(), {}).error();
    INFO(error);
    REQUIRE(error.empty());
    const SqliteFile db(path.string());

    // Every TEXT value of every table is well-formed.
    size_t texts = 0;
    for (const SqlRow& table : db.rows("SELECT name FROM sqlite_master WHERE type = 'table'"))
        for (const SqlRow& row : db.rows("SELECT * FROM \"" + table[0].text + "\""))
            for (const SqlCell& cell : row)
                if (cell.type == SQLITE_TEXT) {
                    ++texts;
                    INFO(table[0].text << ": " << cell.text);
                    CHECK(wellFormedUtf8(cell.text));
                }
    CHECK(texts > 50);

    std::set<std::string> kernels;
    for (const SqlRow& row : db.rows("SELECT s.value FROM CUPTI_ACTIVITY_KIND_KERNEL AS k "
                                     "JOIN StringIds AS s ON s.id = k.demangledName"))
        kernels.insert(row[0].text);
    CHECK(kernels
        == std::set<std::string> {kKernelBadBytes.written, kKernelCutShort.written, kKernelValid.written});
    std::set<std::string> nvtxById, nvtxInline;
    for (const SqlRow& row :
        db.rows("SELECT s.value, n.text FROM NVTX_EVENTS AS n JOIN StringIds AS s ON s.id = n.textId")) {
        nvtxById.insert(row[0].text);
        nvtxInline.insert(row[1].text);
    }
    CHECK(nvtxById == std::set<std::string> {kNvtxCutShort.written, kNvtxValid.written});
    CHECK(nvtxInline == nvtxById);
    CHECK(db.text("SELECT DISTINCT s.value FROM CUPTI_ACTIVITY_KIND_RUNTIME AS r "
                  "JOIN StringIds AS s ON s.id = r.nameId")
        == kApiOverlong.written);
    CHECK(db.text("SELECT name FROM PROCESSES") == kProcess.written);
    CHECK(db.text("SELECT s.value FROM ThreadNames AS t JOIN StringIds AS s ON s.id = t.nameId")
        == kThread.written);
}

TEST_CASE("stats tables, CSV and JSON write names that are not UTF-8 repaired", "[export][utf8][stats]")
{
    const Trace trace = makeBadNamesTrace();
    const StatsReportId ids[]
        = {StatsReportId::NvtxSum, StatsReportId::CudaApiSum, StatsReportId::CudaGpuKernSum};
    std::vector<StatsTable> tables;
    for (const StatsReport& report : computeReports(trace, ids, {}, 1))
        tables.push_back(toTable(report));

    // Each report's names, as its JSON holds them (nvtx_sum may decorate range names).
    std::ostringstream json;
    cli::writeJson(json, tables);
    CHECK(wellFormedUtf8(json.str()));
    const std::set<std::string> strings = stringsOfJson(json.str());
    for (const NameCase* name : kEventNames)
        CHECK(std::any_of(strings.begin(), strings.end(),
            [&](const std::string& s) { return contains(s, name->written); }));

    for (const StatsTable& table : tables) {
        std::ostringstream csv, text, tableJson;
        cli::writeCsv(csv, table);
        cli::writeTextTable(text, table, "no events");
        cli::writeJson(tableJson, {table});
        INFO(table.name);
        CHECK(wellFormedUtf8(csv.str()));
        CHECK(wellFormedUtf8(text.str()));
        for (const NameCase* name : kEventNames) {
            const bool listed = contains(tableJson.str(), name->written);
            CHECK(contains(csv.str(), name->written) == listed);
            CHECK(contains(text.str(), name->written) == listed);
        }
    }
}
