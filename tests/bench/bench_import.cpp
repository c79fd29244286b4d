// bench_import: how fast Sightline imports other tools' files, and with how much memory: a
// generated Chrome trace JSON of about 1 GB (plain and gzip) and a generated Nsight-Systems-
// schema SQLite of about 10M event rows, side by side with Python's json.load on the same JSON
// and the sqlite3 command-line tool running the cuda_gpu_kern_sum SQL on the same SQLite file.
// Each measurement runs in a fresh process (this program re-executed, python3, sqlite3), so its
// peak resident memory (wait4's ru_maxrss) is its own. Inputs are generated once into a cache
// folder. Prints a table; asserts nothing.
#include "bench_support.h"
#include "child_runs.h"
#include "generate.h"
#include "model/export/exporters.h"
#include "model/import/importers.h"

#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>
#include <zlib.h>

namespace {

using namespace sightline;
using namespace sightline::bench;
namespace fs = std::filesystem;

constexpr const char* kUsage = R"(Usage: bench_import [--json-bytes N] [--sqlite-rows N] [--dir DIR] [--fresh]
                    [--no-python] [--no-sqlite3] [--no-gzip]

Imports a generated Chrome trace JSON (default 1G bytes, also gzip-compressed) and a generated
Nsight Systems SQLite export (default 10M rows), and runs python3's json.load and the sqlite3
CLI (cuda_gpu_kern_sum SQL) on the same files. N takes k, M and G suffixes. Inputs are cached
in DIR (default: the build folder's bench-data); --fresh generates them again.
)";

constexpr const char* kPythonLoad = "import json, sys, time\n"
                                    "t = time.perf_counter()\n"
                                    "with open(sys.argv[1], 'rb') as f: d = json.load(f)\n"
                                    "n = len(d['traceEvents'])\n"
                                    "s = time.perf_counter() - t\n"
                                    "print(s, s, n)\n";

struct Settings
{
    fs::path dir = fs::path(SIGHTLINE_BINARY_DIR) / "bench-data";
    uint64_t jsonBytes = 1'000'000'000;
    uint64_t sqliteRows = 10'000'000;
    bool fresh = false, python = true, sqlite3 = true, gzip = true;
};

std::optional<uint64_t> parseSize(std::string text)
{
    uint64_t scale = 1;
    const char suffix = text.empty() ? 0 : char(std::toupper(text.back()));
    if (suffix == 'K' || suffix == 'M' || suffix == 'G') {
        scale = suffix == 'K' ? 1000 : suffix == 'M' ? 1000000 : 1000000000;
        text.pop_back();
    }
    if (text.empty() || text.size() > 12 || text.find_first_not_of("0123456789") != std::string::npos)
        return std::nullopt;
    return std::stoull(text) * scale;
}

// --- Child side: one import, timed, reported on stdout as "seconds parseSeconds events". ---

int runChildImport(const std::string& kind, const std::string& path)
{
    Stopwatch clock;
    double parsed = 0;
    ReadOptions options;
    options.progress = [&](uint64_t done, uint64_t total) {
        if (done == total && parsed == 0) parsed = clock.seconds(); // the first time: input all read
    };
    Result<Trace> trace
        = kind == "sqlite" ? importNsysSqlite(path, options) : importChromeTrace(path, options);
    const double seconds = clock.seconds();
    if (!trace) {
        std::fprintf(stderr, "%s\n", trace.error().c_str());
        return 1;
    }
    std::printf("%.6f %.6f %zu\n", seconds, parsed, trace->eventCount());
    return 0;
}

// --- Parent side. ---

struct Outcome
{
    bool ok = false;
    double seconds = 0; // wall time of the work, as the tool reports it
    double parseSeconds = 0; // reading the file (Sightline: until progress reached 100%)
    uint64_t events = 0;
    uint64_t peakBytes = 0;
    std::string note;
};

// Runs argv in a child; its stdout's first line holds "seconds parseSeconds events", unless
// `timeWall` (then the wall time is measured here). Peak memory from wait4.
Outcome measure(const std::vector<std::string>& argv, bool timeWall = false)
{
    const ChildRun run = runChild(argv);
    Outcome outcome;
    outcome.peakBytes = run.peakBytes;
    outcome.ok = run.ok;
    if (!outcome.ok) {
        outcome.note = run.missing ? "not installed" : "failed";
        return outcome;
    }
    if (timeWall) {
        outcome.seconds = outcome.parseSeconds = run.wallSeconds;
        return outcome;
    }
    unsigned long long events = 0;
    if (std::sscanf(run.output.c_str(), "%lf %lf %llu", &outcome.seconds, &outcome.parseSeconds, &events)
        != 3) {
        outcome.ok = false;
        outcome.note = "no figures";
    }
    outcome.events = events;
    return outcome;
}

// The best of `runs` runs (the machine may be shared), with the largest peak memory seen.
Outcome bestOf(int runs, const std::vector<std::string>& argv)
{
    Outcome best = measure(argv);
    for (int i = 1; i < runs && best.ok; ++i) {
        const Outcome again = measure(argv);
        const uint64_t peak = std::max(best.peakBytes, again.peakBytes);
        if (again.ok && again.seconds < best.seconds) best = again;
        best.peakBytes = peak;
    }
    return best;
}

std::string selfPath()
{
    return fs::read_symlink("/proc/self/exe").string();
}

// A generated trace with about `events` events, so that exporting it gives the file wanted.
Trace generate(uint64_t events)
{
    gen::GeneratorOptions options;
    options.events = events;
    options.processes = 4;
    options.gpus = 4;
    return gen::generateTrace(options);
}

fs::path ensureJson(const Settings& s)
{
    const fs::path path
        = s.dir / format("import-v%u-%s.json", gen::kGeneratorVersion, shortCount(s.jsonBytes).c_str());
    if (fs::exists(path) && !s.fresh) return path;
    // Calibrate the bytes per event on a small trace, then generate the full one.
    const fs::path probe = s.dir / "import-probe.json";
    const uint64_t probeEvents = 200000;
    ExportOptions overwrite;
    overwrite.overwrite = true;
    if (std::string e = exportChromeTrace(generate(probeEvents), probe.string(), overwrite).error();
        !e.empty()) {
        std::fprintf(stderr, "bench_import: %s\n", e.c_str());
        std::exit(1);
    }
    const double bytesPerEvent = double(fs::file_size(probe)) / double(probeEvents);
    fs::remove(probe);
    const uint64_t events = uint64_t(double(s.jsonBytes) / bytesPerEvent);
    std::fprintf(stderr, "Generating %s (%s events, %.0f bytes each) ...\n", path.c_str(),
        shortCount(events).c_str(), bytesPerEvent);
    if (std::string e = exportChromeTrace(generate(events), path.string(), overwrite).error(); !e.empty()) {
        std::fprintf(stderr, "bench_import: %s\n", e.c_str());
        std::exit(1);
    }
    return path;
}

fs::path ensureGzip(const Settings& s, const fs::path& json)
{
    const fs::path path = json.string() + ".gz";
    if (fs::exists(path) && !s.fresh && fs::last_write_time(path) >= fs::last_write_time(json)) return path;
    std::fprintf(stderr, "Compressing %s ...\n", path.c_str());
    std::FILE* in = std::fopen(json.c_str(), "rb");
    gzFile out = gzopen(path.c_str(), "wb6");
    std::vector<char> buffer(1 << 20);
    for (size_t got; in && (got = std::fread(buffer.data(), 1, buffer.size(), in)) > 0;)
        gzwrite(out, buffer.data(), unsigned(got));
    gzclose(out);
    if (in) std::fclose(in);
    return path;
}

fs::path ensureSqlite(const Settings& s)
{
    const fs::path path = s.dir
        / format("import-v%u-%s-rows.sqlite", gen::kGeneratorVersion, shortCount(s.sqliteRows).c_str());
    if (fs::exists(path) && !s.fresh) return path;
    std::fprintf(stderr, "Generating %s ...\n", path.c_str());
    ExportOptions overwrite;
    overwrite.overwrite = true;
    if (std::string e = exportSqlite(generate(s.sqliteRows), path.string(), overwrite).error(); !e.empty()) {
        std::fprintf(stderr, "bench_import: %s\n", e.c_str());
        std::exit(1);
    }
    return path;
}

void printRow(const char* input, const char* tool, const Outcome& o, double megabytes)
{
    if (!o.ok) {
        std::printf("| %-24s | %-34s | %-40s |\n", input, tool, o.note.c_str());
        return;
    }
    const std::string events = o.events ? shortCount(o.events) : std::string("-");
    std::printf("| %-24s | %-34s | %8.2f s | %8.2f s | %9.0f MB/s | %7.0f MB | %7s |\n", input, tool,
        o.seconds, o.parseSeconds, megabytes / o.parseSeconds, double(o.peakBytes) / 1e6, events.c_str());
}

} // namespace

int main(int argc, char** argv)
{
    if (argc == 4 && std::string(argv[1]) == "--child-import") return runChildImport(argv[2], argv[3]);
    Settings s;
    for (int i = 1; i < argc; ++i) {
        const std::string name = argv[i];
        if (name == "-h" || name == "--help") {
            std::fputs(kUsage, stdout);
            return 0;
        }
        if (name == "--fresh")
            s.fresh = true;
        else if (name == "--no-python")
            s.python = false;
        else if (name == "--no-sqlite3")
            s.sqlite3 = false;
        else if (name == "--no-gzip")
            s.gzip = false;
        else if ((name == "--json-bytes" || name == "--sqlite-rows" || name == "--dir") && i + 1 < argc) {
            const std::string value = argv[++i];
            if (name == "--dir") {
                s.dir = value;
                continue;
            }
            const std::optional<uint64_t> size = parseSize(value);
            if (!size || *size == 0) {
                std::fprintf(stderr, "bench_import: '%s' is not a valid value for %s; see --help.\n",
                    value.c_str(), name.c_str());
                return 2;
            }
            (name == "--json-bytes" ? s.jsonBytes : s.sqliteRows) = *size;
        } else {
            std::fprintf(
                stderr, "bench_import: unknown option or missing value: %s; see --help.\n", name.c_str());
            return 2;
        }
    }
    fs::create_directories(s.dir);
    const fs::path json = inChild([&] { return ensureJson(s); });
    const fs::path gzip = s.gzip ? inChild([&] { return ensureGzip(s, json); }) : fs::path();
    const fs::path sqlite = inChild([&] { return ensureSqlite(s); });
    const double jsonMB = double(fs::file_size(json)) / 1e6;
    const double sqliteMB = double(fs::file_size(sqlite)) / 1e6;
    const std::string self = selfPath();

    std::printf(
        "\nImport benchmark (%u CPU cores; peak RSS of each process; MB/s = input bytes / read time)\n\n",
        unsigned(sysconf(_SC_NPROCESSORS_ONLN)));
    std::printf("| %-24s | %-34s | %10s | %10s | %14s | %10s | %7s |\n", "Input", "Tool", "Total", "Read",
        "Rate", "Peak RSS", "Events");
    std::printf("|%s|%s|%s|%s|%s|%s|%s|\n", std::string(26, '-').c_str(), std::string(36, '-').c_str(),
        std::string(12, '-').c_str(), std::string(12, '-').c_str(), std::string(16, '-').c_str(),
        std::string(12, '-').c_str(), std::string(9, '-').c_str());
    const std::string jsonLabel = format("JSON %.0f MB", jsonMB);
    printRow(jsonLabel.c_str(), "sightline import",
        bestOf(3, {self, "--child-import", "json", json.string()}), jsonMB);
    if (s.python)
        printRow(jsonLabel.c_str(), "python3 json.load",
            measure({"python3", "-c", kPythonLoad, json.string()}), jsonMB);
    if (s.gzip) {
        const std::string gzipLabel = format("JSON.gz %.0f MB", double(fs::file_size(gzip)) / 1e6);
        printRow(gzipLabel.c_str(), "sightline import (rate: JSON MB)",
            bestOf(3, {self, "--child-import", "json", gzip.string()}), jsonMB);
    }
    const std::string sqliteLabel = format("SQLite %.0f MB", sqliteMB);
    printRow(sqliteLabel.c_str(), "sightline import",
        bestOf(3, {self, "--child-import", "sqlite", sqlite.string()}), sqliteMB);
    if (s.sqlite3)
        printRow(sqliteLabel.c_str(), "sqlite3 cuda_gpu_kern_sum SQL",
            measure({"sqlite3", "-readonly", sqlite.string(), kKernelSummarySql}, true), sqliteMB);
    std::printf(
        "\nTotal: the whole import, indexes built (or the tool's whole run); Read: until the input\n"
        "was read (Sightline's progress reached 100%%; python: json.load). Sightline: best of 3 runs.\n"
        "Events: events imported (python: traceEvents elements, flows and metadata included).\n"
        "Target: >= 300 MB/s of JSON per core (Sightline reads the JSON on one thread).\n");
    return 0;
}
