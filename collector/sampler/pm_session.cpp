#include "collector/sampler/pm_session.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <thread>

namespace sightline::sampler {

namespace {

// The flag of a DeviceSupported answer that rules profiling out, in words.
std::string unsupportedReason(const CUpti_Profiler_DeviceSupported_Params& p)
{
    if (p.architecture != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return "its architecture has no PM sampling (it needs Turing or newer)";
    if (p.vGpu == CUPTI_PROFILER_CONFIGURATION_DISABLED)
        return "it is a virtual GPU whose host has not enabled profiling";
    if (p.vGpu != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return "it is a virtual GPU without profiling support";
    if (p.confidentialCompute != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return "confidential computing is on";
    if (p.cmp != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return "it is a crypto-mining processor";
    if (p.wsl != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return "WSL does not support it here";
    if (p.sli != CUPTI_PROFILER_CONFIGURATION_SUPPORTED) return "SLI is enabled";
    return "the driver does not allow it in this configuration (a sandbox such as gVisor, or a container "
           "without access to the GPU's counters)";
}

} // namespace

PmSession::PmSession(const Cupti& cupti, int device, const MetricSet& wanted, unsigned threads)
    : m_cupti(cupti)
    , m_device(device)
    , m_set(wanted)
    , m_threads(std::max(1u, threads))
{ }

PmSession::~PmSession()
{
    stop();
    release();
}

Status PmSession::failure(const std::string& step, CUptiResult result) const
{
    const std::string device
        = "GPU metrics of device " + std::to_string(m_device) + " could not be recorded: ";
    switch (result) {
    case CUPTI_ERROR_INSUFFICIENT_PRIVILEGES:
        return Status::failure(device
            + "the driver lets only administrators read GPU performance counters; run as root, or load the "
              "nvidia module with NVreg_RestrictProfilingToAdminUsers=0.");
    case CUPTI_ERROR_HARDWARE_BUSY:
    case CUPTI_ERROR_INVALID_OPERATION:
        return Status::failure(device
            + "another profiler (Nsight Systems, Nsight Compute, DCGM, or a second sightline) is sampling "
              "this "
              "GPU; stop it, or leave GPU metrics off for this device.");
    case CUPTI_ERROR_NOT_SUPPORTED:
    case CUPTI_ERROR_VIRTUALIZED_DEVICE_NOT_SUPPORTED:
    case CUPTI_ERROR_CMP_DEVICE_NOT_SUPPORTED:
        return Status::failure(device + "the GPU or its environment does not support PM sampling (" + step
            + ": " + m_cupti.name(result) + "); record without --gpu-metrics-devices.");
    default:
        return Status::failure(device + step + " failed with " + m_cupti.name(result) + ".");
    }
}

CUpti_Profiler_Host_Object* PmSession::newHost(const std::vector<std::string>& metrics) const
{
    CUpti_Profiler_Host_Initialize_Params init {CUpti_Profiler_Host_Initialize_Params_STRUCT_SIZE, nullptr};
    init.profilerType = CUPTI_PROFILER_TYPE_PM_SAMPLING;
    init.pChipName = m_chip.c_str();
    init.pCounterAvailabilityImage = m_availability.data();
    if (m_cupti.hostInitialize(&init) != CUPTI_SUCCESS) return nullptr;
    std::vector<const char*> names;
    for (const std::string& metric : metrics)
        names.push_back(metric.c_str());
    CUpti_Profiler_Host_ConfigAddMetrics_Params add {
        CUpti_Profiler_Host_ConfigAddMetrics_Params_STRUCT_SIZE, nullptr};
    add.pHostObject = init.pHostObject;
    add.ppMetricNames = names.data();
    add.numMetrics = names.size();
    if (m_cupti.hostAddMetrics(&add) != CUPTI_SUCCESS) {
        CUpti_Profiler_Host_Deinitialize_Params done {
            CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE, nullptr};
        done.pHostObject = init.pHostObject;
        m_cupti.hostDeinitialize(&done);
        return nullptr;
    }
    return init.pHostObject;
}

bool PmSession::hostAccepts(const std::vector<std::string>& metrics)
{
    releaseHost();
    m_host = newHost(metrics);
    return m_host != nullptr;
}

Status PmSession::configure()
{
    CUpti_Profiler_DeviceSupported_Params supported {
        CUpti_Profiler_DeviceSupported_Params_STRUCT_SIZE, nullptr};
    supported.cuDevice = m_device;
    supported.api = CUPTI_PROFILER_PM_SAMPLING;
    if (const CUptiResult r = m_cupti.deviceSupported(&supported); r != CUPTI_SUCCESS)
        return failure("checking support", r);
    if (supported.isSupported != CUPTI_PROFILER_CONFIGURATION_SUPPORTED)
        return Status::failure("GPU metrics of device " + std::to_string(m_device)
            + " could not be recorded: " + unsupportedReason(supported) + ".");

    CUpti_Device_GetChipName_Params chip {CUpti_Device_GetChipName_Params_STRUCT_SIZE, nullptr};
    chip.deviceIndex = size_t(m_device);
    if (const CUptiResult r = m_cupti.chipName(&chip); r != CUPTI_SUCCESS)
        return failure("naming the chip", r);
    m_chip = chip.pChipName ? chip.pChipName : "";

    CUpti_PmSampling_GetCounterAvailability_Params available {
        CUpti_PmSampling_GetCounterAvailability_Params_STRUCT_SIZE, nullptr};
    available.deviceIndex = size_t(m_device);
    if (const CUptiResult r = m_cupti.counterAvailability(&available); r != CUPTI_SUCCESS)
        return failure("reading counter availability", r);
    m_availability.resize(available.counterAvailabilityImageSize);
    available.pCounterAvailabilityImage = m_availability.data();
    if (const CUptiResult r = m_cupti.counterAvailability(&available); r != CUPTI_SUCCESS)
        return failure("reading counter availability", r);

    // Each metric in the first form the chip accepts; metrics it refuses in every form go, each
    // tried alone; then series go from the end until the rest fits one pass.
    for (std::string& metric : m_set.metrics) {
        const std::vector<std::string> forms = metricForms(metric);
        if (forms.size() == 1) continue; // tried with the rest below: one host set-up fewer
        const auto accepted = std::find_if(
            forms.begin(), forms.end(), [&](const std::string& form) { return hostAccepts({form}); });
        metric = accepted != forms.end() ? *accepted : forms.back();
    }
    if (!hostAccepts(m_set.metrics)) {
        std::vector<bool> accepted(m_set.metrics.size());
        for (size_t i = 0; i < m_set.metrics.size(); ++i) {
            accepted[i] = hostAccepts({m_set.metrics[i]});
            if (!accepted[i]) m_refused.push_back(m_set.metrics[i]);
        }
        m_set = restrictTo(m_set, accepted);
    }
    for (;;) {
        if (m_set.series.empty())
            return Status::failure("GPU metrics of device " + std::to_string(m_device)
                + " could not be recorded: the " + m_chip + " chip accepts none of the metrics of the set '"
                + m_set.name + "'; try another --gpu-metrics-set.");
        if (!hostAccepts(m_set.metrics))
            return failure("configuring the metrics", CUPTI_ERROR_INVALID_METRIC_NAME);
        CUpti_Profiler_Host_GetConfigImageSize_Params size {
            CUpti_Profiler_Host_GetConfigImageSize_Params_STRUCT_SIZE, nullptr};
        size.pHostObject = m_host;
        if (const CUptiResult r = m_cupti.hostConfigImageSize(&size); r != CUPTI_SUCCESS)
            return failure("sizing the configuration", r);
        m_config.resize(size.configImageSize);
        CUpti_Profiler_Host_GetConfigImage_Params image {
            CUpti_Profiler_Host_GetConfigImage_Params_STRUCT_SIZE, nullptr};
        image.pHostObject = m_host;
        image.configImageSize = m_config.size();
        image.pConfigImage = m_config.data();
        if (const CUptiResult r = m_cupti.hostConfigImage(&image); r != CUPTI_SUCCESS)
            return failure("building the configuration", r);
        CUpti_Profiler_Host_GetNumOfPasses_Params passes {
            CUpti_Profiler_Host_GetNumOfPasses_Params_STRUCT_SIZE, nullptr};
        passes.configImageSize = m_config.size();
        passes.pConfigImage = m_config.data();
        if (const CUptiResult r = m_cupti.hostPasses(&passes); r != CUPTI_SUCCESS)
            return failure("counting passes", r);
        if (passes.numOfPasses <= 1) break;
        // Too many for one pass: drop the last series' metrics.
        std::vector<bool> keep(m_set.metrics.size(), true);
        const SeriesDefinition& last = m_set.series.back();
        m_refused.push_back(m_set.metrics[last.a]);
        keep[last.a] = false;
        m_set = restrictTo(m_set, keep);
    }
    m_names.clear();
    for (const std::string& metric : m_set.metrics)
        m_names.push_back(metric.c_str());
    return {};
}

Status PmSession::restart()
{
    stop();
    release();
    m_refused.clear();
    return start(m_intervalNs, m_maxSamples, m_images.size(), m_hardwareBufferBytes);
}

Status PmSession::start(uint64_t intervalNs, size_t maxSamples, size_t images, size_t hardwareBufferBytes)
{
    m_intervalNs = intervalNs;
    m_maxSamples = maxSamples;
    m_hardwareBufferBytes = hardwareBufferBytes;
    if (Status configured = configure(); !configured) return configured;
    // Evaluating takes about 25 us a sample of the general set on one thread (H200 host): more
    // host objects let it run on several.
    for (unsigned k = 1; k < m_threads; ++k)
        if (CUpti_Profiler_Host_Object* host = newHost(m_set.metrics)) m_evaluators.push_back(host);

    CUpti_PmSampling_Enable_Params enable {CUpti_PmSampling_Enable_Params_STRUCT_SIZE, nullptr};
    enable.deviceIndex = size_t(m_device);
    if (const CUptiResult r = m_cupti.enable(&enable); r != CUPTI_SUCCESS)
        return failure("enabling PM sampling", r);
    m_sampling = enable.pPmSamplingObject;

    CUpti_PmSampling_SetConfig_Params config {CUpti_PmSampling_SetConfig_Params_STRUCT_SIZE, nullptr};
    config.pPmSamplingObject = m_sampling;
    config.configSize = m_config.size();
    config.pConfig = m_config.data();
    config.hardwareBufferSize = hardwareBufferBytes;
    config.samplingInterval = intervalNs;
    config.triggerMode = CUPTI_PM_SAMPLING_TRIGGER_MODE_GPU_TIME_INTERVAL;
    config.hwBufferAppendMode = CUPTI_PM_SAMPLING_HARDWARE_BUFFER_APPEND_MODE_KEEP_OLDEST;
    if (const CUptiResult r = m_cupti.setConfig(&config); r != CUPTI_SUCCESS)
        return failure("configuring sampling", r);

    CUpti_PmSampling_GetCounterDataSize_Params size {
        CUpti_PmSampling_GetCounterDataSize_Params_STRUCT_SIZE, nullptr};
    size.pPmSamplingObject = m_sampling;
    size.pMetricNames = m_names.data();
    size.numMetrics = m_names.size();
    size.maxSamples = uint32_t(maxSamples);
    if (const CUptiResult r = m_cupti.counterDataSize(&size); r != CUPTI_SUCCESS)
        return failure("sizing the counter data", r);
    m_emptyCounterData.resize(size.counterDataSize);
    CUpti_PmSampling_CounterDataImage_Initialize_Params init {
        CUpti_PmSampling_CounterDataImage_Initialize_Params_STRUCT_SIZE, nullptr};
    init.pPmSamplingObject = m_sampling;
    init.counterDataSize = m_emptyCounterData.size();
    init.pCounterData = m_emptyCounterData.data();
    if (const CUptiResult r = m_cupti.counterDataInitialize(&init); r != CUPTI_SUCCESS)
        return failure("preparing the counter data", r);
    m_images.assign(std::max<size_t>(images, 1), m_emptyCounterData);

    CUpti_PmSampling_Start_Params start {CUpti_PmSampling_Start_Params_STRUCT_SIZE, nullptr};
    start.pPmSamplingObject = m_sampling;
    if (const CUptiResult r = m_cupti.start(&start); r != CUPTI_SUCCESS)
        return failure("starting sampling", r);
    m_started = true;
    return {};
}

namespace {

int64_t nanosecondsSince(std::chrono::steady_clock::time_point t)
{
    return int64_t(
        std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t).count());
}

} // namespace

Result<DecodeResult> PmSession::decode(size_t image, std::vector<RawSample>& out)
{
    DecodeResult result;
    if (!m_sampling || image >= m_images.size()) return result;
    std::vector<uint8_t>& data = m_images[image];
    const auto began = std::chrono::steady_clock::now();
    CUpti_PmSampling_DecodeData_Params decode {CUpti_PmSampling_DecodeData_Params_STRUCT_SIZE, nullptr};
    decode.pPmSamplingObject = m_sampling;
    decode.pCounterDataImage = data.data();
    decode.counterDataImageSize = data.size();
    if (const CUptiResult r = m_cupti.decode(&decode); r != CUPTI_SUCCESS) {
        if (r != CUPTI_ERROR_OUT_OF_MEMORY)
            return Result<DecodeResult>::failure(failure("decoding samples", r).error());
        result.mustRestart = true;
        return result;
    }
    result.overflow = decode.overflow != 0;
    result.more = decode.decodeStopReason == CUPTI_PM_SAMPLING_DECODE_STOP_REASON_COUNTER_DATA_FULL;

    CUpti_PmSampling_GetCounterDataInfo_Params info {
        CUpti_PmSampling_GetCounterDataInfo_Params_STRUCT_SIZE, nullptr};
    info.pCounterDataImage = data.data();
    info.counterDataImageSize = data.size();
    if (const CUptiResult r = m_cupti.counterDataInfo(&info); r != CUPTI_SUCCESS)
        return Result<DecodeResult>::failure(failure("counting samples", r).error());
    for (size_t i = 0; i < info.numCompletedSamples; ++i) {
        CUpti_PmSampling_CounterData_GetSampleInfo_Params sample {
            CUpti_PmSampling_CounterData_GetSampleInfo_Params_STRUCT_SIZE, nullptr};
        sample.pPmSamplingObject = m_sampling;
        sample.pCounterDataImage = data.data();
        sample.counterDataImageSize = data.size();
        sample.sampleIndex = i;
        if (const CUptiResult r = m_cupti.sampleInfo(&sample); r != CUPTI_SUCCESS)
            return Result<DecodeResult>::failure(failure("reading a sample", r).error());
        out.push_back({sample.startTimestamp, sample.endTimestamp, std::vector<double>(m_names.size())});
    }
    result.decodeNs = nanosecondsSince(began);
    return result;
}

Result<int64_t> PmSession::evaluate(size_t image, std::span<RawSample> samples)
{
    if (image >= m_images.size()) return int64_t(0);
    std::vector<uint8_t>& data = m_images[image];
    const auto began = std::chrono::steady_clock::now();
    // Each host object evaluates every n-th sample.
    std::vector<CUpti_Profiler_Host_Object*> hosts {m_host};
    hosts.insert(hosts.end(), m_evaluators.begin(), m_evaluators.end());
    std::atomic<int> failed {CUPTI_SUCCESS};
    auto evaluateShare = [&](size_t k) {
        for (size_t i = k; i < samples.size(); i += hosts.size()) {
            CUpti_Profiler_Host_EvaluateToGpuValues_Params evaluate {
                CUpti_Profiler_Host_EvaluateToGpuValues_Params_STRUCT_SIZE, nullptr};
            evaluate.pHostObject = hosts[k];
            evaluate.pCounterDataImage = data.data();
            evaluate.counterDataImageSize = data.size();
            evaluate.rangeIndex = i;
            evaluate.ppMetricNames = m_names.data();
            evaluate.numMetrics = m_names.size();
            evaluate.pMetricValues = samples[i].values.data();
            if (const CUptiResult r = m_cupti.hostEvaluate(&evaluate); r != CUPTI_SUCCESS) failed = int(r);
        }
    };
    if (hosts.size() == 1 || samples.size() < 64) {
        for (size_t k = 0; k < hosts.size(); ++k)
            evaluateShare(k);
    } else {
        std::vector<std::jthread> workers;
        for (size_t k = 1; k < hosts.size(); ++k)
            workers.emplace_back(evaluateShare, k);
        evaluateShare(0);
    }
    // The image is read: the next decode into it starts on an empty one (cheaper than
    // initializing it again).
    std::memcpy(data.data(), m_emptyCounterData.data(), data.size());
    if (failed != CUPTI_SUCCESS)
        return Result<int64_t>::failure(failure("evaluating a sample", CUptiResult(failed.load())).error());
    return nanosecondsSince(began);
}

void PmSession::stop()
{
    if (m_started) {
        CUpti_PmSampling_Stop_Params stop {CUpti_PmSampling_Stop_Params_STRUCT_SIZE, nullptr};
        stop.pPmSamplingObject = m_sampling;
        m_cupti.stop(&stop);
        m_started = false;
    }
}

void PmSession::releaseHost()
{
    for (CUpti_Profiler_Host_Object* host : m_evaluators) {
        CUpti_Profiler_Host_Deinitialize_Params done {
            CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE, nullptr};
        done.pHostObject = host;
        m_cupti.hostDeinitialize(&done);
    }
    m_evaluators.clear();
    if (!m_host) return;
    CUpti_Profiler_Host_Deinitialize_Params done {
        CUpti_Profiler_Host_Deinitialize_Params_STRUCT_SIZE, nullptr};
    done.pHostObject = m_host;
    m_cupti.hostDeinitialize(&done);
    m_host = nullptr;
}

void PmSession::release()
{
    if (m_sampling) {
        CUpti_PmSampling_Disable_Params disable {CUpti_PmSampling_Disable_Params_STRUCT_SIZE, nullptr};
        disable.pPmSamplingObject = m_sampling;
        m_cupti.disable(&disable);
        m_sampling = nullptr;
    }
    releaseHost();
}

} // namespace sightline::sampler
