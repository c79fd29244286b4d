// What `sightline profile` does between the target's exit and "Generated:", for a recording
// of CUDA work: it writes a spool as the injection library would after a long training run
// (one launching thread; each launch a cudaLaunchKernel record and its kernel on one of 4
// streams, every 50th step a copy; a second thread waiting on a stream every 100th step, its
// calls interleaved), then times mergeSpools() and writeReport() with their
// phases. Issue 3's target: "Generated:" within 1 s per 10M events. NVTX floods are measured
// on the GPU machine by tests/gpu/run.sh; this covers the CUDA record path, GPU or not.
//   bench_processing [--events N]   (default 10M; k and M suffixes)
#include "bench_support.h"
#include "collector/convert/assemble/spool_merge.h"
#include "model/format/report_io.h"
#include "tests/tools/generator/generate.h"
#include "tests/unit/collector/spool_builder.h"

#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

using namespace sightline;
using namespace sightline::bench;

namespace {

constexpr uint32_t kPid = 4242;
} // namespace

int main(int argc, char** argv)
{
    size_t events = 10'000'000;
    if (argc == 3 && std::string(argv[1]) == "--events") {
        const auto parsed = gen::parseEventCount(argv[2]);
        if (!parsed || *parsed == 0) {
            std::fprintf(stderr, "bench_processing: '%s' is not an event count (e.g. 10M, 250k).\n", argv[2]);
            return 2;
        }
        events = size_t(*parsed);
    } else if (argc != 1) {
        std::fprintf(stderr, "Usage: bench_processing [--events N]   (default 10M)\n");
        return 2;
    }

    const auto dir = std::filesystem::temp_directory_path() / "sightline-bench-processing";
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir / "spool");
    test::cudaRecording(kPid, events).writeTo((dir / "spool" / (std::to_string(kPid) + ".spool")).string());

    collector::SessionInfo session;
    session.spoolDir = (dir / "spool").string();
    session.start = {0, 0, 1'700'000'000'000'000'000};
    session.end = {0, int64_t(events) * 2500 + 10'000'000, 0};
    session.targetPid = kPid;
    session.command = {"./train"};
    session.queryHost = false;

    const Stopwatch total;
    collector::MergedReport merged = collector::mergeSpools(session);
    const Stopwatch write;
    const std::string error = writeReport(merged.trace, (dir / "cuda.rep").string()).error();
    const double writeSeconds = write.seconds(), totalSeconds = total.seconds();
    std::filesystem::remove_all(dir);
    if (!error.empty()) {
        std::fprintf(stderr, "bench_processing: %s\n", error.c_str());
        return 1;
    }

    std::printf("Processing a CUDA recording (%zu events in the report; %u hardware threads)\n",
        merged.trace.eventCount(), std::thread::hardware_concurrency());
    for (const auto& [phase, seconds] : merged.phaseSeconds)
        std::printf("  %-28s %.3f s\n", phase.c_str(), seconds);
    std::printf("  %-28s %.3f s\n", "write report", writeSeconds);
    const double perTenMillion = totalSeconds * 1e7 / double(std::max<size_t>(1, merged.trace.eventCount()));
    std::printf("target exit to 'Generated:' %.3f s, %.3f s per 10M events (target <= 1 s)  %s\n",
        totalSeconds, perTenMillion, perTenMillion <= 1.0 ? "PASS" : "MISS");
    return 0;
}
