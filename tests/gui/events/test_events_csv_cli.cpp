// One CSV of events (issue 33): for every kind of track, the Events View lists all the report's
// tracks of that kind, as "Show in Events View" on them does, and its Export CSV (the real view
// and model code) must write byte for byte the file the real `sightline export --type csv`
// writes for that kind: the same header, the same rows in the same order. Checked on a
// generated report and, when the shared traces are present, on a real Nsight Systems export.
#include "events_test_support.h"
#include "generate.h"
#include "model/format/report_io.h"
#include "model/import/open_trace.h"
#include "test_paths.h"

#include <QProcess>
#include <QStringList>
#include <array>
#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>

using namespace sightline;
using namespace sightline::testing;
using namespace sightline::views;

namespace {

struct KindFile
{
    TrackKind kind;
    const char* name; // as README documents them
};
constexpr std::array<KindFile, 6> kKindFiles {{{TrackKind::CudaApi, "cuda_api.csv"},
    {TrackKind::Nvtx, "nvtx.csv"}, {TrackKind::OsRuntime, "osrt.csv"}, {TrackKind::Kernels, "kernels.csv"},
    {TrackKind::Memory, "memory.csv"}, {TrackKind::Synchronization, "sync.csv"}}};

std::string readFile(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

size_t lineCount(const std::string& text)
{
    return size_t(std::count(text.begin(), text.end(), '\n'));
}

// Runs `sightline export --type csv` on the report into a fresh folder; returns the folder.
std::filesystem::path exportWithCli(const std::filesystem::path& report, const std::string& scratch)
{
    const std::filesystem::path folder = test::scratchDir(scratch) / "cli";
    QProcess cli;
    cli.setProcessChannelMode(QProcess::MergedChannels);
    cli.start(QString::fromStdString((test::binDir() / "sightline").string()),
        {QStringLiteral("export"), QStringLiteral("--type"), QStringLiteral("csv"), QStringLiteral("-o"),
            QString::fromStdString(folder.string() + "/"), QString::fromStdString(report.string())});
    REQUIRE(cli.waitForFinished(120000));
    INFO(cli.readAll().toStdString());
    REQUIRE(cli.exitStatus() == QProcess::NormalExit);
    REQUIRE(cli.exitCode() == 0);
    return folder;
}

// Exports every kind both ways and compares the files; returns how many events they held.
size_t compareBothWays(const std::filesystem::path& report, const std::string& scratch)
{
    const std::filesystem::path cliFolder = exportWithCli(report, scratch);
    Result<Trace> opened = openTrace(report.string());
    REQUIRE(opened);
    const auto trace = std::make_shared<const Trace>(std::move(opened.value()));
    EventsView view(trace);
    view.resize(1400, 600);
    view.show();
    const std::filesystem::path guiFolder = test::scratchDir(scratch + "_gui");
    size_t events = 0;
    for (const KindFile& file : kKindFiles) {
        INFO(file.name);
        const std::vector<TrackId> tracks = tracksOfKind(*trace, file.kind);
        const std::filesystem::path guiPath = guiFolder / file.name;
        if (!tracks.empty()) {
            view.showEvents(tracks);
            REQUIRE(waitUntilIdle(view));
            REQUIRE(view.listedCount() == trace->eventCount(file.kind));
            const Status written = view.exportCsv(QString::fromStdString(guiPath.string()));
            INFO(written.error());
            REQUIRE(written.ok());
        }
        const std::string cli = readFile(cliFolder / file.name);
        REQUIRE(lineCount(cli) == trace->eventCount(file.kind) + 1);
        CHECK(cli.starts_with("Name,Start (ns),Duration (ns),End (ns),Thread / Stream"));
        // A report without the kind: the view lists nothing, the CLI writes the header alone.
        if (tracks.empty()) continue;
        const std::string gui = readFile(guiPath);
        CHECK(gui.substr(0, gui.find('\n')) == cli.substr(0, cli.find('\n')));
        CHECK(gui == cli);
        events += trace->eventCount(file.kind);
    }
    return events;
}

} // namespace

TEST_CASE(
    "the Events View's Export CSV writes what sightline export --type csv writes, on a generated report")
{
    const std::filesystem::path report = test::scratchDir("csv_both_ways_report") / "generated.rep";
    gen::GeneratorOptions options;
    options.events = 30000;
    REQUIRE(writeReport(gen::generateTrace(options), report.string()).ok());
    CHECK(compareBothWays(report, "csv_both_ways_generated") == options.events);
}

TEST_CASE("the Events View's Export CSV writes what sightline export --type csv writes, on an nsys export")
{
    const std::filesystem::path report = test::sharedTraces() / "nsys-ai__h100_2gpu_1s.sqlite";
    if (test::sharedTraces().empty() || !std::filesystem::exists(report)) {
        WARN("shared traces folder absent; skipping the comparison on a real nsys export");
        return;
    }
    CHECK(compareBothWays(report, "csv_both_ways_nsys") > 0);
}
