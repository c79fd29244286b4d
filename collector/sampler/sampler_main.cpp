// sightline-gpu-sampler: samples GPU metrics beside a profiled program, one PM sampling
// session per GPU, so the target's own CUDA calls pay nothing per launch and its own CUPTI use
// (torch.profiler) is left alone. `sightline profile --gpu-metrics-devices` starts it before the
// target and stops it after: it prints "ready" once every device is sampling (or has said why
// it cannot), and stops when its standard input closes or on SIGTERM. Each device's samples go
// to DIR/gpu-metrics-N.smp (collector/spool/gpu_metrics_file.h); failures become diagnostics
// in those files (or in gpu-metrics-sampler.smp when no device could be opened).
//
//   sightline-gpu-sampler --output DIR [--devices all|N[,M...]] [--frequency HZ] [--set NAME]
//                         [--cupti PATH]
//   sightline-gpu-sampler --list-sets [--cupti PATH]
#include "collector/sampler/decode_pipeline.h"
#include "collector/sampler/gpu_libraries.h"
#include "collector/sampler/metrics_recorder.h"
#include "collector/sampler/pm_session.h"
#include "collector/sampler/sampler_trace.h"
#include "collector/spool/gpu_metrics_file.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <functional>
#include <iostream>
#include <mutex>
#include <poll.h>
#include <string>
#include <thread>
#include <unistd.h>
#include <vector>

using namespace sightline;
using namespace sightline::sampler;

namespace {

std::atomic<bool> g_stop {false};

void onTerminate(int)
{
    g_stop = true;
}

struct Options
{
    std::string output;
    std::string devices = "all";
    double frequency = 10000;
    std::string set = "general";
    std::string cupti;
    bool listSets = false;
};

int64_t monotonicNs()
{
    timespec ts {};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return int64_t(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

// What to add to a CUPTI timestamp to put it on CLOCK_MONOTONIC: the tightest of a few
// (monotonic, CUPTI, monotonic) readings.
int64_t gpuToMonotonic(const Cupti& cupti)
{
    int64_t best = 0, narrowest = INT64_MAX;
    for (int i = 0; i < 7; ++i) {
        const int64_t before = monotonicNs();
        uint64_t gpu = 0;
        cupti.timestamp(&gpu);
        const int64_t after = monotonicNs();
        if (after - before < narrowest) {
            narrowest = after - before;
            best = before + (after - before) / 2 - int64_t(gpu);
        }
    }
    return best;
}

// The most memory this process has held (VmHWM), in MB: it stays flat however long the run.
long peakResidentMegabytes()
{
    std::FILE* status = std::fopen("/proc/self/status", "r");
    if (!status) return 0;
    char line[256];
    long kilobytes = 0;
    while (std::fgets(line, sizeof line, status))
        if (std::sscanf(line, "VmHWM: %ld kB", &kilobytes) == 1) break;
    std::fclose(status);
    return kilobytes / 1024;
}

// SIGHTLINE_SAMPLER_THREADS, SIGHTLINE_SAMPLER_IMAGE_SAMPLES, SIGHTLINE_SAMPLER_BUFFER_MB and
// SIGHTLINE_SAMPLER_PERIOD_US override the evaluating threads, the counter image's samples, the
// hardware buffer and the decode period, for measuring what decoding costs (with
// SIGHTLINE_SAMPLER_TRACE).
long tuning(const char* variable, long otherwise)
{
    const char* text = std::getenv(variable);
    const long value = text ? std::atol(text) : 0;
    return value > 0 ? std::min(value, 1L << 20) : otherwise;
}

std::string uuidText(const CUuuid& uuid)
{
    const auto* b = reinterpret_cast<const unsigned char*>(uuid.bytes);
    char text[64];
    std::snprintf(text, sizeof text,
        "GPU-%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1], b[2], b[3],
        b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]);
    return text;
}

std::string filePath(const Options& o, const std::string& name)
{
    return o.output + "/" + spool::gpu_metrics::kFilePrefix + name + spool::gpu_metrics::kFileSuffix;
}

// Without any device: the reason goes into a file of its own.
int failWithoutDevices(const Options& o, const std::string& sentence)
{
    MetricsRecorder recorder;
    if (recorder.open(filePath(o, "sampler")))
        recorder.diagnostic(1, "GPU metrics could not be recorded: " + sentence);
    std::cout << "ready" << std::endl;
    return 0;
}

// How often to decode, and what a counter data image holds. Batches of a few hundred samples
// decoded cheapest per sample on the H200 (29-35 us against 70-90 us for 1024 or more, general
// set before its TriageCompute forms), so decoding runs every 300 intervals (2 to 50 ms). An
// image must never fill: samples decoded after one did came with one stale timestamp (H100,
// H200), which the recorder can only mend by their count (metrics_recorder.h). So one holds six
// periods' samples (256 to 4096), and kImages of them let decoding go on while earlier ones are
// evaluated (decode_pipeline.h).
struct DecodePlan
{
    std::chrono::microseconds period;
    size_t imageSamples;
};

constexpr size_t kImages = 3;

DecodePlan decodePlan(double frequency)
{
    const int64_t periodUs = tuning(
        "SIGHTLINE_SAMPLER_PERIOD_US", std::clamp<int64_t>(int64_t(1e6 * 300 / frequency), 2000, 50000));
    const size_t perPeriod = size_t(frequency * double(periodUs) * 1e-6);
    const size_t samples = std::clamp<size_t>(std::bit_ceil(6 * perPeriod + 1), 256, 4096);
    return {std::chrono::microseconds(periodUs),
        size_t(tuning("SIGHTLINE_SAMPLER_IMAGE_SAMPLES", long(samples)))};
}

// Samples one device until g_stop; `started` is called once sampling runs or has failed.
void sampleDevice(const Options& o, const CudaDriver& cuda, const Cupti& cupti, int ordinal,
    const MetricSet& set, const std::function<void()>& started)
{
    MetricsRecorder recorder;
    if (Status opened = recorder.open(filePath(o, std::to_string(ordinal)), uint64_t(1e9 / o.frequency));
        !opened) {
        std::cerr << "sightline-gpu-sampler: " << opened.error() << std::endl;
        started();
        return;
    }
    char name[256] = {};
    CUuuid uuid {};
    int device = 0;
    cuda.deviceGet(&device, ordinal);
    cuda.deviceName(name, sizeof name - 1, device);
    cuda.deviceUuid(&uuid, device);
    CUcontext context = nullptr;
    if (cuda.primaryContextRetain(&context, device) == 0) cuda.contextSetCurrent(context);

    // A quarter of the cores evaluate samples (up to 8): 10 kHz of ten metrics needs about one.
    PmSession session(cupti, ordinal, set,
        unsigned(tuning(
            "SIGHTLINE_SAMPLER_THREADS", std::clamp(std::thread::hardware_concurrency() / 4, 1u, 8u))));
    const uint64_t intervalNs = uint64_t(1e9 / o.frequency);
    const DecodePlan plan = decodePlan(o.frequency);
    const size_t bufferBytes
        = size_t(tuning("SIGHTLINE_SAMPLER_BUFFER_MB", PmSession::kDefaultHardwareBufferBytes >> 20)) << 20;
    const int64_t began = monotonicNs();
    const Status running = session.start(intervalNs, plan.imageSamples, kImages, bufferBytes);
    recorder.device(ordinal, name, uuidText(uuid), session.chip());
    started();
    if (!running) {
        recorder.diagnostic(1, running.error());
        return;
    }
    recorder.series(session.metricSet());
    if (!session.refusedMetrics().empty()) {
        std::string list;
        for (const std::string& metric : session.refusedMetrics())
            list += (list.empty() ? "" : ", ") + metric;
        recorder.diagnostic(0,
            "GPU metrics of device " + std::to_string(ordinal) + ": the " + session.chip()
                + " chip did not take " + list
                + " in one pass with the rest; the series built on them are left out.");
    }
    SamplerTrace trace(ordinal);
    trace.session(session.counterDataBytes(), plan.imageSamples, session.metricSet().metrics, bufferBytes);
    DecodePipeline pipeline(
        kImages,
        [&](DecodedBatch& batch) -> Status {
            const Result<int64_t> took = session.evaluate(batch.image, batch.samples);
            if (!took) return Status::failure(took.error());
            trace.evaluated(monotonicNs(), batch, took.value());
            return {};
        },
        [&](DecodedBatch& batch) {
            // A sample cannot have ended after its decode, nor begun before the sampler started.
            recorder.samples(batch.samples, batch.gpuToMonotonic, began - 1'000'000'000, batch.latest);
        });
    uint64_t overflows = 0, restarts = 0;
    std::string failure;
    // One decode round: until the counter data image stops filling up.
    auto decodeRound = [&] {
        for (;;) {
            DecodedBatch batch;
            batch.image = pipeline.acquire();
            const int64_t before = monotonicNs();
            const Result<DecodeResult> decoded = session.decode(batch.image, batch.samples);
            batch.gpuToMonotonic = gpuToMonotonic(cupti);
            batch.latest = monotonicNs() + 100'000'000;
            if (decoded)
                trace.decoded(before, monotonicNs(), batch, decoded.value());
            else
                batch.samples.clear(); // nothing of a failed decode is recorded
            pipeline.submit(std::move(batch)); // its image comes back all the same
            if (!decoded) {
                failure = decoded.error();
                return;
            }
            overflows += decoded->overflow ? 1 : 0;
            if (decoded->mustRestart) {
                ++restarts;
                pipeline.drain(); // nothing evaluates while the session starts again
                if (Status again = session.restart(); !again) failure = again.error();
                recorder.restarted();
                return;
            }
            if (!decoded->more) return;
        }
    };
    auto next = std::chrono::steady_clock::now();
    while (!g_stop && failure.empty() && pipeline.failure().empty()) {
        next += plan.period;
        std::this_thread::sleep_until(next);
        decodeRound();
        next = std::max(next, std::chrono::steady_clock::now() - plan.period);
    }
    session.stop();
    if (failure.empty()) decodeRound();
    pipeline.drain();
    if (failure.empty()) failure = pipeline.failure();
    if (!failure.empty()) recorder.diagnostic(1, failure);
    if (overflows > 0)
        recorder.diagnostic(1,
            "GPU metrics of device " + std::to_string(ordinal) + ": the hardware sample buffer overflowed "
                + std::to_string(overflows)
                + " time(s), so samples were lost; lower --gpu-metrics-frequency.");
    recorder.diagnostic(0,
        "GPU metrics of device " + std::to_string(ordinal) + ": " + std::to_string(recorder.written())
            + " samples of the " + session.metricSet().name + " set on " + session.chip() + " at "
            + std::to_string(int(o.frequency)) + " Hz; the sampler's memory peaked at "
            + std::to_string(peakResidentMegabytes()) + " MB.");
    if (restarts > 0)
        recorder.diagnostic(1,
            "GPU metrics of device " + std::to_string(ordinal) + ": sampling stopped "
                + std::to_string(restarts)
                + " time(s) when the hardware sample buffer overflowed and was started "
                + "again; the gaps show as unknown values.");
    const std::string about = "GPU metrics of device " + std::to_string(ordinal) + ": ";
    if (recorder.placed() > 0)
        recorder.diagnostic(0,
            about + std::to_string(recorder.placed())
                + " samples came with a timestamp that went back; their count fitted the time"
                + " before the next good one, so each was placed one interval after the one before.");
    if (recorder.dropped() > 0)
        recorder.diagnostic(1,
            about + std::to_string(recorder.dropped())
                + " samples out of time order, or outside the time it sampled, were dropped; this happens"
                + " when decoding falls behind the GPU: lower --gpu-metrics-frequency or choose a smaller"
                + " --gpu-metrics-set (sm).");
}

int listSets(const Options& o)
{
    for (const MetricSet& set : metricSets()) {
        std::cout << set.name << (set.name == defaultMetricSet().name ? " (default)" : "") << ": "
                  << set.summary << "\n";
        for (const SeriesDefinition& series : set.series)
            std::cout << "    " << series.name << " [" << series.unit << "]: " << series.description << "\n";
    }
    CudaDriver cuda;
    Cupti cupti;
    int count = 0;
    if (Status loaded = cuda.load(); !loaded) {
        std::cout << "No GPU to check the sets against: " << loaded.error() << "\n";
        return 0;
    }
    cuda.deviceCount(&count);
    if (Status loaded = cupti.load(o.cupti); !loaded) {
        std::cout << "The sets could not be checked against the GPUs here: " << loaded.error() << "\n";
        return 0;
    }
    for (int ordinal = 0; ordinal < count; ++ordinal) {
        CUpti_Device_GetChipName_Params chip {CUpti_Device_GetChipName_Params_STRUCT_SIZE, nullptr};
        chip.deviceIndex = size_t(ordinal);
        const bool named = cupti.chipName(&chip) == CUPTI_SUCCESS && chip.pChipName;
        std::cout << "Device " << ordinal << ": chip " << (named ? chip.pChipName : "unknown") << "\n";
    }
    return 0;
}

bool parse(int argc, char** argv, Options& o)
{
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        auto value = [&]() -> std::string { return i + 1 < argc ? argv[++i] : ""; };
        if (arg == "--output")
            o.output = value();
        else if (arg == "--devices")
            o.devices = value();
        else if (arg == "--frequency")
            o.frequency = std::atof(value().c_str());
        else if (arg == "--set")
            o.set = value();
        else if (arg == "--cupti")
            o.cupti = value();
        else if (arg == "--list-sets")
            o.listSets = true;
        else
            return false;
    }
    return o.listSets || (!o.output.empty() && o.frequency >= 10 && o.frequency <= 200000);
}

} // namespace

int main(int argc, char** argv)
{
    Options o;
    if (!parse(argc, argv, o)) {
        std::cerr
            << "usage: sightline-gpu-sampler --output DIR [--devices all|N[,M]] [--frequency 10..200000] "
               "[--set NAME] [--cupti PATH] | --list-sets"
            << std::endl;
        return 2;
    }
    if (o.listSets) return listSets(o);
    std::signal(SIGINT, SIG_IGN); // Ctrl+C goes to the target; the launcher stops us after it
    std::signal(SIGTERM, onTerminate);

    const MetricSet* set = findMetricSet(o.set);
    if (!set)
        return failWithoutDevices(
            o, "there is no metric set named '" + o.set + "'; see --gpu-metrics-set=help.");
    CudaDriver cuda;
    if (Status loaded = cuda.load(); !loaded) return failWithoutDevices(o, loaded.error());
    Cupti cupti;
    if (Status loaded = cupti.load(o.cupti); !loaded) return failWithoutDevices(o, loaded.error());
    int count = 0;
    cuda.deviceCount(&count);
    std::vector<int> ordinals;
    if (o.devices == "all") {
        for (int d = 0; d < count; ++d)
            ordinals.push_back(d);
    } else {
        const char* p = o.devices.c_str();
        while (*p) {
            char* end = nullptr;
            const long d = std::strtol(p, &end, 10);
            if (end == p) break;
            if (d < 0 || d >= count)
                return failWithoutDevices(o,
                    "there is no device " + std::to_string(d) + " (this machine has " + std::to_string(count)
                        + "); choose --gpu-metrics-devices from 0 to " + std::to_string(count - 1)
                        + ", or all.");
            ordinals.push_back(int(d));
            p = *end == ',' ? end + 1 : end;
        }
    }
    if (ordinals.empty()) return failWithoutDevices(o, "this machine has no CUDA device.");

    std::mutex mutex;
    size_t started = 0;
    std::vector<std::thread> threads;
    for (int ordinal : ordinals)
        threads.emplace_back([&, ordinal] {
            sampleDevice(o, cuda, cupti, ordinal, *set, [&] {
                std::lock_guard lock(mutex);
                ++started;
            });
        });
    for (;;) {
        {
            std::lock_guard lock(mutex);
            if (started == ordinals.size()) break;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }
    std::cout << "ready" << std::endl;
    // Until the launcher closes our input (or sends SIGTERM).
    while (!g_stop) {
        pollfd input {0, POLLIN, 0};
        if (poll(&input, 1, 100) > 0) {
            char byte;
            if (read(0, &byte, 1) <= 0) break;
        }
    }
    g_stop = true;
    for (std::thread& thread : threads)
        thread.join();
    return 0;
}
