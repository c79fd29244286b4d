#include "collector/convert/cpu/cpu_assembly.h"

#include "collector/convert/cpu/process_images.h"
#include "collector/convert/cpu/python_stacks.h"
#include "collector/convert/cpu/thread_states.h"
#include "collector/convert/cpu/user_stack.h"

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <unordered_map>

namespace sightline::collector {

namespace {

using spool::cpu_recording::EventRole;

// Sightline's own code in the target: the injection library and its OS-runtime wrappers.
constexpr std::string_view kOwnLibrary = "/libsightline-inject.so";

// Drops the frames of Sightline's own code, as Nsight Systems hides its injection's.
void dropOwnFrames(const ProcessImage& image, std::vector<uint64_t>& frames)
{
    auto own = [&](uint64_t ip) {
        const CodeMapping* mapping = image.mappingAt(ip);
        return mapping && mapping->path.ends_with(kOwnLibrary);
    };
    frames.erase(std::remove_if(frames.begin(), frames.end(), own), frames.end());
}

struct PythonMergeCounts
{
    size_t merged = 0; // samples whose Python frames were put in place
    size_t mismatched = 0; // samples whose Python stack did not fit their native stack
};

// Turns samples into interned stacks. Samples of one loop repeat the same raw addresses, so a
// hash of (process image, addresses, Python frames) finds the stack again without naming
// anything twice.
class StackInterner
{
public:
    StackInterner(const PerfRecording& recording, bool dwarf, TraceBuilder& builder)
        : m_images(recording)
        , m_walker(recording.sampleRegistersMask, dwarf)
        , m_python(recording)
        , m_pythonCodes(recording.pythonCodes)
        , m_builder(builder)
    { }

    // The stack a context-switch sample left the CPU from, and the state its frames tell.
    std::pair<uint32_t, ThreadState> waitOf(const PerfSample& sample)
    {
        const uint32_t stack = stackOf(sample);
        auto [it, added] = m_waitReasons.try_emplace(stack, ThreadState::Waiting);
        if (added && stack != kNoCallStack) {
            std::vector<SymbolName> names;
            stackOf(sample, &names);
            it->second = waitReason(names);
        }
        return {stack, it->second};
    }

    // The stack of `sample`, and the names of its frames when `names` is given (innermost first).
    std::vector<std::string> symbolProblems() const { return m_images.problems(); }
    const UserStackCounts& userStackCounts() const { return m_walker.counts(); }
    const PythonMergeCounts& pythonCounts() const { return m_pythonCounts; }

    uint32_t stackOf(const PerfSample& sample, std::vector<SymbolName>* names = nullptr)
    {
        ProcessImage& image = m_images.at(sample.pid, sample.time);
        m_kernel.clear();
        m_user.clear();
        if (sample.kernelIp && sample.kernelChain.empty()) m_kernel.push_back(sample.ip);
        for (size_t i = 0; i < sample.kernelChain.size(); ++i)
            m_kernel.push_back(i == 0 ? sample.kernelChain[i] : sample.kernelChain[i] - 1);
        const PythonStack* python = sample.role == EventRole::CpuClock ? m_python.stackOf(sample) : nullptr;
        const bool whole = m_walker.walk(image, sample, m_user, python != nullptr);
        dropOwnFrames(image, m_user);
        if (m_kernel.empty() && m_user.empty()) return kNoCallStack;

        uint64_t hash
            = reinterpret_cast<uintptr_t>(&image) * 0x9E3779B97F4A7C15ull + (whole ? 0 : 0x5bd1e995);
        for (uint64_t ip : m_kernel)
            hash = (hash ^ ip) * 0x100000001B3ull + 1;
        for (uint64_t ip : m_user)
            hash = (hash ^ ip) * 0x100000001B3ull;
        if (python)
            for (uint32_t frame : python->frames)
                hash = (hash ^ frame) * 0x100000001B3ull + 2;
        if (!names) {
            // Equal hashes of different stacks are left to chance: 64 bits over at most millions.
            if (auto it = m_stacks.find(hash); it != m_stacks.end()) {
                countPython(python, it->second.pythonFits);
                return it->second.stack;
            }
        }
        m_frames.clear();
        for (uint64_t ip : m_kernel)
            m_frames.push_back(frameOf(image, ip, true, names));
        bool pythonFits = false;
        if (python) {
            pythonFits = PythonFrameMerger::merge(
                m_user, whole, *python, [&](uint64_t ip) { return isInterpreterLoop(image, ip); }, m_merged);
            for (const MergedFrame& frame : m_merged)
                m_frames.push_back(frame.python ? pythonFrame(uint32_t(frame.value), names)
                                                : frameOf(image, frame.value, false, names));
        } else {
            for (uint64_t ip : m_user)
                m_frames.push_back(frameOf(image, ip, false, names));
        }
        countPython(python, pythonFits);
        if (!whole) m_frames.push_back(truncatedFrame(names));
        const uint32_t stack = m_builder.cpuStack(m_frames);
        m_stacks[hash] = {stack, pythonFits};
        return stack;
    }

private:
    uint32_t frameOf(ProcessImage& image, uint64_t ip, bool kernel, std::vector<SymbolName>* names)
    {
        auto key = std::pair(kernel ? nullptr : &image, ip);
        auto it = m_frameIds.find(key);
        if (it == m_frameIds.end()) {
            if (kernel && !m_kernelSymbols) m_kernelSymbols = std::make_unique<KernelSymbols>();
            SymbolName name = kernel ? m_kernelSymbols->name(ip) : image.name(ip);
            const uint32_t id = m_builder.cpuFrame(
                {m_builder.intern(name.function), m_builder.intern(name.module), name.offset, name.kernel});
            it = m_frameIds.emplace(key, id).first;
            m_names.emplace(id, std::move(name));
        }
        if (names) names->push_back(m_names.at(it->second));
        return it->second;
    }

    void countPython(const PythonStack* python, bool fits)
    {
        if (python) ++(fits ? m_pythonCounts.merged : m_pythonCounts.mismatched);
    }

    bool isInterpreterLoop(ProcessImage& image, uint64_t ip)
    {
        auto [it, added] = m_interpreterLoops.try_emplace(ImageAddress(&image, ip), false);
        if (added) it->second = image.name(ip).function.starts_with(kInterpreterLoop); // and its .cold part
        return it->second;
    }

    uint32_t pythonFrame(uint32_t code, std::vector<SymbolName>* names)
    {
        auto it = m_pythonFrameIds.find(code);
        if (it == m_pythonFrameIds.end()) {
            auto named = m_pythonCodes.find(code);
            SymbolName name = named == m_pythonCodes.end()
                ? pythonFunctionName("[python]", {})
                : pythonFunctionName(named->second.name, named->second.file, named->second.firstLine);
            const uint32_t id = m_builder.cpuFrame(
                {m_builder.intern(name.function), m_builder.intern(name.module), name.offset, false});
            it = m_pythonFrameIds.emplace(code, id).first;
            m_names.emplace(id, std::move(name));
        }
        if (names) names->push_back(m_names.at(it->second));
        return it->second;
    }

    // The root of a stack that reaches no thread start, instead of a garbage frame.
    uint32_t truncatedFrame(std::vector<SymbolName>* names)
    {
        SymbolName name {"[truncated]", "[unknown]", 0, false};
        if (m_truncatedFrame == UINT32_MAX)
            m_truncatedFrame = m_builder.cpuFrame(
                {m_builder.intern(name.function), m_builder.intern(name.module), 0, false});
        if (names) names->push_back(std::move(name));
        return m_truncatedFrame;
    }

    struct Interned
    {
        uint32_t stack = 0;
        bool pythonFits = false;
    };

    ProcessImages m_images;
    UserStackWalker m_walker;
    PythonFrameMerger m_python;
    const std::unordered_map<uint32_t, PythonCodeName>& m_pythonCodes;
    PythonMergeCounts m_pythonCounts;
    TraceBuilder& m_builder;
    std::unique_ptr<KernelSymbols> m_kernelSymbols;
    uint32_t m_truncatedFrame = UINT32_MAX;
    std::unordered_map<uint64_t, Interned> m_stacks;
    std::unordered_map<ImageAddress, uint32_t, ImageAddressHash> m_frameIds;
    std::unordered_map<ImageAddress, bool, ImageAddressHash> m_interpreterLoops;
    std::unordered_map<uint32_t, uint32_t> m_pythonFrameIds; // by code id
    std::unordered_map<uint32_t, SymbolName> m_names;
    std::unordered_map<uint32_t, ThreadState> m_waitReasons; // per stack
    std::vector<uint64_t> m_kernel, m_user;
    std::vector<MergedFrame> m_merged;
    std::vector<uint32_t> m_frames;
};

bool wanted(const CudaBacktraceSpec& spec, std::string_view name)
{
    auto has = [&](std::string_view part) { return name.find(part) != std::string_view::npos; };
    if (spec.sync && (has("Synchronize") || has("WaitEvent") || has("EventQuery") || has("StreamQuery")))
        return true;
    if (spec.memory && (has("Memcpy") || has("Memset") || has("Malloc") || has("Free") || has("MemAlloc")))
        return true;
    return spec.kernel && has("Launch");
}

// Threads and processes the kernel saw that the collector did not (a child without the
// injection, threads that never called CUDA), named after their last `comm`.
void addEntities(
    const PerfRecording& recording, const std::vector<ProcessCapture>& processes, TraceBuilder& builder)
{
    std::set<uint32_t> knownPids, knownTids;
    for (const ProcessCapture& p : processes) {
        knownPids.insert(p.process.pid.value);
        for (const Thread& t : p.threads)
            knownTids.insert(t.tid.value);
    }
    std::map<uint32_t, std::pair<uint32_t, std::string>> threads; // tid -> (pid, name)
    for (const PerfThreadEvent& e : recording.threadEvents) {
        if (e.pid == 0 && e.tid == 0) continue;
        auto& entry = threads[e.tid];
        entry.first = e.pid;
        if (e.kind == PerfThreadEvent::Kind::Comm) entry.second = std::string(e.name);
    }
    for (const PerfSample& s : recording.samples)
        threads.try_emplace(s.tid, s.pid, std::string());
    for (const auto& [tid, thread] : threads) {
        const auto& [pid, name] = thread;
        if (knownPids.insert(pid).second) {
            const auto main = threads.find(pid);
            builder.addProcess({Pid(pid), main != threads.end() ? main->second.second : name, {}});
        }
        if (knownTids.insert(tid).second) builder.addThread({Pid(pid), Tid(tid), name});
    }
}

} // namespace

CpuAssemblyStats addCpuProfile(const PerfRecording& recording, int64_t originMonotonicNs,
    Timestamp sessionEnd, const std::vector<ProcessCapture>& processes, const CpuConversionOptions& options,
    TraceBuilder& builder)
{
    CpuAssemblyStats stats;
    for (const std::string& d : recording.diagnostics)
        builder.addDiagnostic({Severity::Warning, "cpu sampling", d});
    if (recording.lostRecords > 0)
        builder.addDiagnostic({Severity::Warning, "cpu sampling",
            std::to_string(recording.lostRecords)
                + " CPU samples or context switches were lost because the launcher did not drain the "
                  "kernel's "
                  "buffers in time; lower --sampling-frequency or use --backtrace=fp."});
    if (recording.samples.empty() && recording.threadEvents.empty()) return stats;

    addEntities(recording, processes, builder);
    builder.setSamplingPeriod(Timestamp(recording.samplingPeriodNs));
    StackInterner stacks(recording, options.dwarf, builder);
    auto toTrace
        = [&](uint64_t t) { return std::clamp<Timestamp>(Timestamp(t) - originMonotonicNs, 0, sessionEnd); };

    // Every sample's stack, per thread in time order, for the CUDA API backtraces.
    std::map<uint32_t, std::vector<std::pair<Timestamp, uint32_t>>> stacksByThread;
    std::vector<std::pair<uint32_t, ThreadState>> waits(
        recording.samples.size(), {kNoCallStack, ThreadState::Waiting});
    for (size_t i = 0; i < recording.samples.size(); ++i) {
        const PerfSample& s = recording.samples[i];
        const Timestamp time = toTrace(s.time);
        uint32_t stack;
        if (s.role == EventRole::ContextSwitch) {
            waits[i] = stacks.waitOf(s);
            stack = waits[i].first;
        } else {
            stack = stacks.stackOf(s);
            builder.addCpuSample({time, Tid(s.tid), stack, s.cpu});
            ++stats.samples;
        }
        if (options.cudaBacktrace.any()) stacksByThread[s.tid].emplace_back(time, stack);
    }

    const UserStackCounts& counts = stacks.userStackCounts();
    stats.unwound = counts.unwound;
    stats.truncated = counts.truncated;
    if (counts.unwound > 0 || counts.truncated > 0)
        builder.addDiagnostic({Severity::Info, "cpu sampling",
            std::to_string(counts.walked) + " user stacks: " + std::to_string(counts.unwound)
                + " unwound from the copied stack with the call frame information"
                + (options.dwarf ? "" : " where the frame-pointer walk broke") + ", "
                + std::to_string(counts.truncated)
                + " reach no thread start (a stack deeper than the copy, code without call frame "
                  "information) and end in [truncated]."});

    const PythonMergeCounts& python = stacks.pythonCounts();
    if (python.merged > 0 || python.mismatched > 0)
        builder.addDiagnostic({Severity::Info, "cpu sampling",
            std::to_string(python.merged + python.mismatched)
                + " samples of CPython threads have their Python frames read from the interpreter: "
                + std::to_string(python.merged) + " put in place of the interpreter's frames, "
                + std::to_string(python.mismatched)
                + " left out because they no longer matched the native stack (the thread had moved on "
                  "before they were read)."});

    StateInput input {
        &recording, originMonotonicNs, sessionEnd, [&](size_t sample) { return waits[sample]; }};
    for (const ThreadStateInterval& state : threadStatesOf(input)) {
        builder.addThreadState(state);
        ++stats.states;
    }

    if (options.cudaBacktrace.any()) {
        for (const ProcessCapture& p : processes)
            for (const HostEvent<ApiCall>& call : p.apiCalls) {
                if (call.event.end - call.event.start < options.cudaBacktrace.thresholdNs) continue;
                if (!wanted(options.cudaBacktrace, builder.strings()[call.event.name])) continue;
                auto thread = stacksByThread.find(call.tid.value);
                if (thread == stacksByThread.end()) continue;
                const auto& list = thread->second;
                auto it
                    = std::lower_bound(list.begin(), list.end(), std::pair(call.event.start, uint32_t(0)));
                if (it == list.end() || it->first > call.event.end || it->second == kNoCallStack) continue;
                builder.addEventStack({call.tid, call.event.start, it->second});
                ++stats.eventStacks;
            }
    }
    return stats;
}

} // namespace sightline::collector
