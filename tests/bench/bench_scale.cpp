// bench_scale: what a command costs as reports grow, measured as whole CLI runs side by side in
// one run, so the figures on a shared VM are ratios that hold:
//   - `sightline stats --report cuda_gpu_kern_sum` over a .rep imported from a generated
//     Nsight Systems export (default 5.25M events, about 2M kernels) against sqlite3 running the
//     same summary SQL on the export;
//   - `sightline info` and that kernel summary on a generated report (default 100M events);
// each also with an earlier Sightline (--before BINARY), on a report that build wrote itself;
//   - with --threads, loading that generated report whole (indexes built) with 1, 2, 4, ...
//     threads up to the cores present: the speed-up of parallel decode;
//   - with --overview-of A.rep,B.rep,..., the model's side of the viewer's first paint for each
//     report: reading its stored overview and querying every lane's level of detail for 1920
//     pixel columns, cold (the file dropped from the page cache) and warm, in a process of its own
//     (bench_first_paint adds the view, where Qt is installed).
// Inputs are generated once into a cache folder. Prints a table; asserts nothing.
#include "bench_support.h"
#include "child_runs.h"
#include "generate.h"
#include "model/export/exporters.h"
#include "model/format/report_io.h"
#include "model/format/report_overview.h"

#include <cstdio>
#include <fcntl.h>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

namespace {

using namespace sightline;
using namespace sightline::bench;
namespace fs = std::filesystem;

constexpr const char* kUsage
    = R"(Usage: bench_scale [--kernel-events N] [--info-events N] [--before SIGHTLINE]
                   [--runs R] [--dir DIR] [--threads] [--overview-of A.rep,B.rep,...]

Times `sightline stats --report cuda_gpu_kern_sum` on a .rep imported from a generated Nsight
Systems export of N events (default 5.25M) beside sqlite3 running the same SQL on the export,
and `sightline info` on a generated report of N events (default 100M). With --before, the same
commands of another Sightline build run on reports it wrote. --threads also loads the generated
report whole with 1, 2, 4, ... threads. --overview-of times, for each report given, reading its
overview and querying every lane's columns for a 1920-pixel first frame, cold and warm, and does
nothing else. Best of R runs (default 3). Inputs are cached in DIR
(default: the build folder's bench-data). --bin names the folder holding sightline and
sightline-gen (default: this build's bin). N takes k, M and G suffixes.
)";

struct Settings
{
    fs::path dir = fs::path(SIGHTLINE_BINARY_DIR) / "bench-data";
    std::string sightline = std::string(SIGHTLINE_BINARY_DIR) + "/bin/sightline";
    std::string generator = std::string(SIGHTLINE_BINARY_DIR) + "/bin/sightline-gen";
    std::string before; // another build's sightline, or none
    uint64_t kernelEvents = 5'250'000;
    uint64_t infoEvents = 100'000'000;
    int runs = 3;
    bool threads = false;
    std::vector<std::string> overviewOf; // reports whose first paint to time, instead of the rest
};

// Child side of --threads: loads `path` whole with `threads` threads and prints the seconds.
int runChildLoad(const std::string& path, unsigned threads)
{
    Stopwatch clock;
    ReadOptions options;
    options.threads = threads;
    const Result<Trace> trace = readReport(path, options);
    if (!trace) {
        std::fprintf(stderr, "%s\n", trace.error().c_str());
        return 1;
    }
    std::printf("%.6f %zu\n", clock.seconds(), trace->eventCount());
    return 0;
}

// Child side of --overview-of: reads the overview of `path` (dropped from the page cache first
// when `cold`), queries every lane's level of detail for a 1920-pixel frame of the whole span,
// and prints the seconds, the report's events and the stand-ins.
int runChildOverview(const std::string& path, bool cold)
{
    if (cold) {
        const int fd = ::open(path.c_str(), O_RDONLY);
        if (fd < 0 || ::posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED) != 0)
            std::fprintf(stderr, "bench_scale: cannot drop '%s' from the page cache.\n", path.c_str());
        if (fd >= 0) ::close(fd);
    }
    Stopwatch clock;
    const Result<std::optional<ReportOverview>> read = readReportOverview(path);
    if (!read || !read->has_value()) {
        std::fprintf(
            stderr, "bench_scale: %s\n", read ? "the report stores no overview" : read.error().c_str());
        return 1;
    }
    const Trace& overview = read.value()->trace;
    std::vector<LodColumn> columns(1920);
    for (uint32_t t = 0; t < overview.tracks.size(); ++t)
        for (uint32_t l = 0; l < overview.tracks[t].laneCount(); ++l)
            overview.laneLod(TrackId(t), l, overview.span, columns);
    std::printf(
        "%.6f %llu %zu\n", clock.seconds(), (unsigned long long)read.value()->events, overview.eventCount());
    return 0;
}

void printOverviewTimes(const Settings& s, const std::vector<std::string>& reports)
{
    std::printf(
        "\nThe model's side of the first paint: a report's overview read and every lane's 1920 columns\n"
        "queried (best of %d runs each, in a process of its own); ratio against the first report:\n\n",
        s.runs);
    std::printf("| %-28s | %8s | %10s | %10s | %10s | %10s | %9s |\n", "Report", "Events", "Stand-ins",
        "Cold", "Warm", "Peak RSS", "Warm x");
    std::printf("|%s|%s|%s|%s|%s|%s|%s|\n", std::string(30, '-').c_str(), std::string(10, '-').c_str(),
        std::string(12, '-').c_str(), std::string(12, '-').c_str(), std::string(12, '-').c_str(),
        std::string(12, '-').c_str(), std::string(11, '-').c_str());
    const std::string self = fs::read_symlink("/proc/self/exe").string();
    double first = 0;
    for (const std::string& report : reports) {
        const ChildRun cold = fastestOf(s.runs, {self, "--child-overview", report, "cold"});
        const ChildRun warm = fastestOf(s.runs, {self, "--child-overview", report, "warm"});
        double coldSeconds = 0, warmSeconds = 0;
        unsigned long long events = 0, standIns = 0;
        if (!cold.ok || !warm.ok || std::sscanf(cold.output.c_str(), "%lf", &coldSeconds) != 1
            || std::sscanf(warm.output.c_str(), "%lf %llu %llu", &warmSeconds, &events, &standIns) != 3) {
            std::printf("| %-28s | failed |\n", fs::path(report).filename().c_str());
            continue;
        }
        if (first == 0) first = warmSeconds;
        std::printf("| %-28s | %8s | %10llu | %7.1f ms | %7.1f ms | %7.0f MB | %8.2fx |\n",
            fs::path(report).filename().c_str(), shortCount(events).c_str(), standIns, coldSeconds * 1e3,
            warmSeconds * 1e3, double(std::max(cold.peakBytes, warm.peakBytes)) / 1e6, warmSeconds / first);
    }
}

void printThreadSweep(const Settings& s, const fs::path& report)
{
    std::printf("\nLoading %s whole (indexes built), by threads; speed-up against 1 thread:\n\n",
        report.filename().c_str());
    std::printf(
        "| %-8s | %10s | %10s | %10s | %14s |\n", "Threads", "Load", "Peak RSS", "Speed-up", "Events/s");
    std::printf("|%s|%s|%s|%s|%s|\n", std::string(10, '-').c_str(), std::string(12, '-').c_str(),
        std::string(12, '-').c_str(), std::string(12, '-').c_str(), std::string(16, '-').c_str());
    const std::string self = fs::read_symlink("/proc/self/exe").string();
    const unsigned cores = unsigned(sysconf(_SC_NPROCESSORS_ONLN));
    double single = 0;
    for (unsigned threads = 1;; threads = std::min(threads * 2, cores)) {
        const ChildRun run
            = fastestOf(s.runs, {self, "--child-load", report.string(), std::to_string(threads)});
        double seconds = 0;
        unsigned long long events = 0;
        if (!run.ok || std::sscanf(run.output.c_str(), "%lf %llu", &seconds, &events) != 2) {
            std::printf("| %-8u | %10s | %10s | %10s | %14s |\n", threads, "failed", "", "", "");
        } else {
            if (threads == 1) single = seconds;
            std::printf("| %-8u | %8.3f s | %7.0f MB | %9.2fx | %12.1f M |\n", threads, seconds,
                double(run.peakBytes) / 1e6, single / seconds, double(events) / seconds / 1e6);
        }
        if (threads == cores) break;
    }
}

void require(const ChildRun& run, const std::string& what)
{
    if (run.ok) return;
    std::fprintf(stderr, "bench_scale: %s failed%s.\n", what.c_str(), run.missing ? " (not installed)" : "");
    std::exit(1);
}

fs::path ensureExport(const Settings& s)
{
    const fs::path path
        = s.dir / format("scale-v%u-%s.sqlite", gen::kGeneratorVersion, shortCount(s.kernelEvents).c_str());
    if (fs::exists(path)) return path;
    return inChild([&] {
        std::fprintf(stderr, "Generating %s ...\n", path.c_str());
        gen::GeneratorOptions options;
        options.events = s.kernelEvents;
        ExportOptions overwrite;
        overwrite.overwrite = true;
        if (std::string e = exportSqlite(gen::generateTrace(options), path.string(), overwrite).error();
            !e.empty()) {
            std::fprintf(stderr, "bench_scale: %s\n", e.c_str());
            std::exit(1);
        }
        return path;
    });
}

// `binary import input -o output`, unless output exists and is newer than the binary.
fs::path ensureImported(const std::string& binary, const fs::path& input, const fs::path& output)
{
    if (fs::exists(output) && fs::last_write_time(output) > fs::last_write_time(binary)) return output;
    std::fprintf(stderr, "Writing %s with %s ...\n", output.c_str(), binary.c_str());
    require(runChild({binary, "import", "--force", "-o", output.string(), input.string()}), "import");
    return output;
}

fs::path ensureGenerated(const Settings& s)
{
    const fs::path path
        = s.dir / format("scale-v%u-%s.rep", gen::kGeneratorVersion, shortCount(s.infoEvents).c_str());
    if (fs::exists(path) && fs::last_write_time(path) > fs::last_write_time(s.sightline)) return path;
    std::fprintf(stderr, "Generating %s ...\n", path.c_str());
    require(
        runChild({s.generator, "--events", std::to_string(s.infoEvents), "-o", path.string()}), "generating");
    return path;
}

struct Row
{
    std::string what;
    ChildRun run;
};

void printRows(const std::vector<Row>& rows, double reference)
{
    for (const Row& row : rows) {
        if (!row.run.ok) {
            std::printf("| %-58s | %10s | %9s | %10s |\n", row.what.c_str(), "failed", "", "");
            continue;
        }
        // Without a reference (the first row failed, e.g. no sqlite3 installed) there is no ratio.
        const std::string ratio = reference > 0 ? format("%9.2fx", reference / row.run.wallSeconds) : "-";
        std::printf("| %-58s | %8.3f s | %7.0f MB | %10s |\n", row.what.c_str(), row.run.wallSeconds,
            double(row.run.peakBytes) / 1e6, ratio.c_str());
    }
}

std::optional<uint64_t> parseCount(const std::string& text)
{
    return gen::parseEventCount(text);
}

} // namespace

int main(int argc, char** argv)
{
    if (argc == 4 && std::string(argv[1]) == "--child-load")
        return runChildLoad(argv[2], unsigned(std::atoi(argv[3])));
    if (argc == 4 && std::string(argv[1]) == "--child-overview")
        return runChildOverview(argv[2], std::string(argv[3]) == "cold");
    Settings s;
    for (int i = 1; i < argc; ++i) {
        const std::string name = argv[i];
        if (name == "-h" || name == "--help") {
            std::fputs(kUsage, stdout);
            return 0;
        }
        if (name == "--threads") {
            s.threads = true;
            continue;
        }
        if (i + 1 >= argc) {
            std::fprintf(
                stderr, "bench_scale: unknown option or missing value: %s; see --help.\n", name.c_str());
            return 2;
        }
        const std::string value = argv[++i];
        if (name == "--dir")
            s.dir = value;
        else if (name == "--overview-of") {
            for (size_t from = 0; from <= value.size();) {
                const size_t comma = std::min(value.find(',', from), value.size());
                s.overviewOf.push_back(fs::absolute(value.substr(from, comma - from)).string());
                from = comma + 1;
            }
        } else if (name == "--bin") {
            s.sightline = (fs::absolute(value) / "sightline").string();
            s.generator = (fs::absolute(value) / "sightline-gen").string();
        } else if (name == "--before")
            s.before = fs::absolute(value).string();
        else if (name == "--runs")
            s.runs = std::max(1, std::atoi(value.c_str()));
        else if (name == "--kernel-events" || name == "--info-events") {
            const std::optional<uint64_t> count = parseCount(value);
            if (!count || *count == 0) {
                std::fprintf(stderr, "bench_scale: '%s' is not an event count; see --help.\n", value.c_str());
                return 2;
            }
            (name == "--kernel-events" ? s.kernelEvents : s.infoEvents) = *count;
        } else {
            std::fprintf(stderr, "bench_scale: unknown option: %s; see --help.\n", name.c_str());
            return 2;
        }
    }
    if (!s.overviewOf.empty()) {
        printOverviewTimes(s, s.overviewOf);
        return 0;
    }
    fs::create_directories(s.dir);
    const fs::path sqlite = ensureExport(s);
    const fs::path rep = ensureImported(s.sightline, sqlite, s.dir / "scale-kernels.rep");
    const fs::path big = ensureGenerated(s);
    std::optional<fs::path> repBefore, bigBefore;
    if (!s.before.empty()) {
        repBefore = ensureImported(s.before, sqlite, s.dir / "scale-kernels-before.rep");
        bigBefore = ensureImported(s.before, big, s.dir / "scale-info-before.rep");
    }

    std::printf(
        "\nScale benchmark (%u CPU cores; wall time and peak RSS of each whole process, best of %d)\n",
        unsigned(sysconf(_SC_NPROCESSORS_ONLN)), s.runs);
    const ChildRun kernels = runChild(
        {"sqlite3", "-readonly", sqlite.string(), "SELECT COUNT(*) FROM CUPTI_ACTIVITY_KIND_KERNEL"});
    std::printf("\n%s events (%s kernels) imported from %s (%.0f MB); speed-up against sqlite3:\n\n",
        shortCount(s.kernelEvents).c_str(),
        kernels.ok ? shortCount(std::stoull(kernels.output)).c_str() : "?", sqlite.filename().c_str(),
        double(fs::file_size(sqlite)) / 1e6);
    std::printf("| %-58s | %10s | %10s | %10s |\n", "Command", "Time", "Peak RSS", "Speed-up");
    std::printf("|%s|%s|%s|%s|\n", std::string(60, '-').c_str(), std::string(12, '-').c_str(),
        std::string(12, '-').c_str(), std::string(12, '-').c_str());
    const std::vector<std::string> kernSum {"stats", "--report", "cuda_gpu_kern_sum", "--format", "csv"};
    auto command = [&](const std::string& binary, std::vector<std::string> args, const fs::path& file) {
        args.insert(args.begin(), binary);
        args.push_back(file.string());
        return fastestOf(s.runs, args);
    };
    std::vector<Row> rows;
    rows.push_back({"sqlite3 cuda_gpu_kern_sum SQL on the export",
        fastestOf(s.runs, {"sqlite3", "-readonly", sqlite.string(), kKernelSummarySql})});
    rows.push_back({"sightline stats -r cuda_gpu_kern_sum", command(s.sightline, kernSum, rep)});
    if (repBefore) {
        rows.push_back(
            {"before: sightline stats -r cuda_gpu_kern_sum", command(s.before, kernSum, *repBefore)});
        rows.push_back({"sightline stats -r cuda_gpu_kern_sum, report by before",
            command(s.sightline, kernSum, *repBefore)});
    }
    printRows(rows, rows.front().run.wallSeconds);
    const bool sameTable = !repBefore || rows[1].run.output == rows[2].run.output;
    std::printf("\nSightline's table %s the earlier build's.\n", sameTable ? "equals" : "DIFFERS FROM");

    std::printf("\n`sightline info` on %s generated events (%.0f MB); speed-up against the first row:\n\n",
        shortCount(s.infoEvents).c_str(), double(fs::file_size(big)) / 1e6);
    std::printf("| %-58s | %10s | %10s | %10s |\n", "Command", "Time", "Peak RSS", "Speed-up");
    std::printf("|%s|%s|%s|%s|\n", std::string(60, '-').c_str(), std::string(12, '-').c_str(),
        std::string(12, '-').c_str(), std::string(12, '-').c_str());
    rows.clear();
    if (bigBefore) {
        rows.push_back({"before: sightline info, report by before", command(s.before, {"info"}, *bigBefore)});
        rows.push_back(
            {"sightline info, report by before (opened whole)", command(s.sightline, {"info"}, *bigBefore)});
    }
    rows.push_back({"sightline info", command(s.sightline, {"info"}, big)});
    printRows(rows, rows.front().run.wallSeconds);

    std::printf(
        "\n`sightline stats -r cuda_gpu_kern_sum` on the same report; speed-up against the first row:\n\n");
    std::printf("| %-58s | %10s | %10s | %10s |\n", "Command", "Time", "Peak RSS", "Speed-up");
    std::printf("|%s|%s|%s|%s|\n", std::string(60, '-').c_str(), std::string(12, '-').c_str(),
        std::string(12, '-').c_str(), std::string(12, '-').c_str());
    rows.clear();
    if (bigBefore)
        rows.push_back(
            {"before: sightline stats -r cuda_gpu_kern_sum", command(s.before, kernSum, *bigBefore)});
    rows.push_back({"sightline stats -r cuda_gpu_kern_sum", command(s.sightline, kernSum, big)});
    printRows(rows, rows.front().run.wallSeconds);
    if (s.threads) printThreadSweep(s, big);
    std::printf(
        "\nTargets: cuda_gpu_kern_sum >= 5x faster than sqlite3 (stretch 20x); info >= 10x faster than\n"
        "the earlier build. Timings on a shared VM drift; read the ratios of one run.\n");
    return 0;
}
