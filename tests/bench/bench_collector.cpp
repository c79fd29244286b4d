// Cost of the collector's hot paths inside a target: an NVTX push+pop pair, an OS-runtime
// wrapper on a call below the threshold, and an uncontended mutex (tried first, never timed).
// The benchmark runs itself twice, once bare and once with libsightline-inject.so attached
// (NVTX_INJECTION64_PATH and LD_PRELOAD, as `sightline profile -t nvtx,osrt` sets them), and
// prints both figures and the difference. It prints only; it never fails on a timing. Each
// figure is the median of its rounds, with a spread from the second-fastest to the
// second-slowest round; a target is judged on the spread (PASS, MISS, or UNDECIDED when the
// limit lies within it), never on a best round.
//
// NVTX is measured two ways: in bursts of 20k pairs with pauses (the writer drains between
// them, as it does for real programs: the per-call cost), and back to back (400k pairs per
// round: the sustained rate, bounded by how fast the writer can move ~48 bytes per pair to
// disk, and by the page faults of fresh buffer memory when it falls behind).
#include "bench_support.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <mutex>
#include <nvtx3/nvToolsExt.h>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace sightline::bench;

namespace {

constexpr int kRounds = 7;
constexpr int kIterations = 400000;
constexpr int kBurstRounds = 10;
constexpr int kBurst = 20000;

// Nanoseconds per iteration of `body` over its rounds: the median, and the second-fastest and
// second-slowest rounds (one outlier either way is left out of the spread).
struct RoundFigures
{
    double low = 0, median = 0, high = 0;
};

template <class Body>
RoundFigures nsPerIteration(Body&& body, int rounds = kRounds, int iterations = kIterations, int pauseMs = 0)
{
    std::vector<double> perRound;
    for (int round = 0; round < rounds; ++round) {
        if (pauseMs) usleep(pauseMs * 1000);
        const Stopwatch watch;
        for (int i = 0; i < iterations; ++i)
            body();
        perRound.push_back(double(watch.nanoseconds()) / iterations);
    }
    std::sort(perRound.begin(), perRound.end());
    const size_t n = perRound.size();
    return {perRound[n > 2 ? 1 : 0], perRound[n / 2], perRound[n > 2 ? n - 2 : n - 1]};
}

void nvtxPair()
{
    nvtxRangePushA("bench-range");
    nvtxRangePop();
}

// Runs in the measured process; prints "name nanoseconds" lines.
int measure()
{
    // fflush of an empty buffer: a wrapped libc call that makes no system call, far below 1 us.
    FILE* sink = std::fopen("/dev/null", "w");
    const RoundFigures flush = nsPerIteration([sink] { std::fflush(sink); });
    // fwrite of one byte into a large stdio buffer: wrapped, no system call either.
    static char buffer[1 << 22];
    std::setvbuf(sink, buffer, _IOFBF, sizeof(buffer));
    const RoundFigures write = nsPerIteration([sink] { std::fwrite("x", 1, 1, sink); });
    std::fclose(sink);

    std::mutex mutex;
    const RoundFigures lock = nsPerIteration([&mutex] {
        mutex.lock();
        mutex.unlock();
    });

    for (int i = 0; i < 100000; ++i) // the first NVTX call loads the injection; warm the buffers
        nvtxPair();
    const RoundFigures burst = nsPerIteration(nvtxPair, kBurstRounds, kBurst, 250);
    usleep(250000);
    const RoundFigures sustained = nsPerIteration(nvtxPair);
    for (const auto& [name, figures] : {std::pair {"nvtx_burst", burst}, {"nvtx_sustained", sustained},
             {"osrt_fflush", flush}, {"osrt_fwrite", write}, {"mutex_lock_unlock", lock}})
        std::printf("%s %.2f %.2f %.2f\n", name, figures.median, figures.low, figures.high);
    return 0;
}

std::map<std::string, RoundFigures> run(const std::string& environment)
{
    const std::string self = std::filesystem::read_symlink("/proc/self/exe").string();
    std::map<std::string, RoundFigures> figures;
    FILE* pipe = popen((environment + " '" + self + "' --measure").c_str(), "r");
    if (!pipe) return figures;
    char line[256];
    while (std::fgets(line, sizeof(line), pipe)) {
        std::istringstream fields(line);
        std::string name;
        RoundFigures value;
        if (fields >> name >> value.median >> value.low >> value.high) figures[name] = value;
    }
    pclose(pipe);
    return figures;
}

} // namespace

int main(int argc, char** argv)
{
    if (argc > 1 && std::string(argv[1]) == "--measure") return measure();
    const std::string library = std::getenv("SIGHTLINE_INJECT_LIBRARY")
        ? std::getenv("SIGHTLINE_INJECT_LIBRARY")
        : SIGHTLINE_INJECT_LIBRARY;
    char spool[] = "/tmp/sightline-bench-XXXXXX";
    if (!mkdtemp(spool)) {
        std::perror("mkdtemp");
        return 1;
    }
    const auto bare = run("env -u NVTX_INJECTION64_PATH -u LD_PRELOAD");
    const auto traced = run("env NVTX_INJECTION64_PATH='" + library + "' LD_PRELOAD='" + library
        + "' SIGHTLINE_SPOOL_DIR='" + spool + "' SIGHTLINE_TRACE=nvtx,osrt");
    uint64_t spoolBytes = 0;
    for (const auto& entry : std::filesystem::directory_iterator(spool))
        spoolBytes += entry.file_size();
    std::filesystem::remove_all(spool);

    FigureTable table({"bare", "with sightline", "added"});
    auto row = [&](const std::string& name, const std::string& figure, const std::string& target,
                   double limit, bool limitOnTotal) {
        const RoundFigures a = bare.count(name) ? bare.at(name) : RoundFigures {};
        const RoundFigures b = traced.count(name) ? traced.at(name) : RoundFigures {};
        // What sightline adds, with the widest spread the two runs' spreads allow.
        const RoundFigures added {b.low - a.high, b.median - a.median, b.high - a.low};
        auto text
            = [](const RoundFigures& f) { return format("%.1f ns (%.1f..%.1f)", f.median, f.low, f.high); };
        table.set(figure, target, 0, infoCell(text(a)));
        const bool judged = limit > 0;
        table.set(figure, target, 1,
            judged && limitOnTotal ? spreadAtMost(b.low, b.high, limit, text(b)) : infoCell(text(b)));
        table.set(figure, target, 2,
            judged && !limitOnTotal ? spreadAtMost(added.low, added.high, limit, text(added))
                                    : infoCell(text(added)));
    };
    row("nvtx_burst", "NVTX push+pop pair (bursts of 20k)", "<= 30 ns attached", 30, true);
    row("nvtx_sustained", "NVTX push+pop pair (400k back to back)", "-", 0, true);
    row("osrt_fflush", "OS-runtime wrapper below threshold (fflush)", "<= 20 ns added", 20, false);
    row("osrt_fwrite", "OS-runtime wrapper below threshold (fwrite 1 B)", "<= 20 ns added", 20, false);
    row("mutex_lock_unlock", "uncontended mutex lock+unlock (tried first)", "<= 20 ns added", 20, false);
    std::printf(
        "Collector hot paths (median of rounds, spread from the second-fastest to the second-slowest; "
        "OS runtime and mutex: %d rounds of %d calls)\n",
        kRounds, kIterations);
    table.print(stdout);
    const double pairs = 100000.0 + kBurstRounds * kBurst + double(kRounds) * kIterations;
    std::printf("spool written for %.0f NVTX pairs: %.1f MB (%.1f bytes per pair)\n", pairs,
        double(spoolBytes) / 1e6, double(spoolBytes) / pairs);
    return 0;
}
