// Records the CPU side of a run with perf_event_open(2), from the launcher, beside the target:
// timer samples of the target's threads with their call stacks, and context switches (with the
// stack each thread left the CPU from) for thread states, on the whole process tree.
//
// One software cpu-clock event per CPU follows the target with `inherit`, so threads and
// children it starts (fork, exec) are recorded too; it also carries the switch, mmap, comm and
// task records. A context-switch event per CPU writes into the same ring buffer. All events
// are opened on the stopped child and enabled by its exec, so the launcher itself is never
// recorded. A reader thread drains the ring buffers into the CPU recording file
// (collector/spool/cpu_recording_file.h) every few milliseconds; unwinding and symbols come
// after the run (collector/convert/cpu). The one thing read from the target as it runs is the
// Python stack of a sampled CPython thread that writes no perf map (python_stack_recorder.h),
// while it is still close to what the sample saw.
//
// Where perf events are refused (perf_event_paranoid, a container, seccomp), the recorder
// records nothing and the file carries the sentence that says which setting to change, so the
// report explains the missing CPU rows; the rest of the recording goes on.
#pragma once

#include "collector/perf/cpu_recording_options.h"
#include "collector/perf/python_stack_recorder.h"

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <thread>
#include <vector>

namespace sightline::collector {

class CpuRecorder
{
public:
    // Opens the events for `pid` (stopped before its exec) and starts draining them into `path`.
    // Never fails: a refusal is written into the file and returned by refusal().
    CpuRecorder(pid_t pid, const CpuRecordingOptions& options, std::string path);
    CpuRecorder(const CpuRecorder&) = delete;
    CpuRecorder& operator=(const CpuRecorder&) = delete;
    ~CpuRecorder();

    // Disables the events, drains what is left and closes the file. Idempotent.
    void stop();

    // Why nothing (or less) is recorded: one sentence each; empty when all went well.
    const std::vector<std::string>& warnings() const { return m_warnings; }
    uint64_t bytesWritten() const { return m_bytes; }

private:
    struct RingBuffer
    {
        int fd = -1; // the cpu-clock event, owner of the buffer
        std::vector<int> followers; // events writing into it
        uint32_t cpu = 0;
        void* base = nullptr;
        size_t mappedBytes = 0;
    };

    void openEvents(pid_t pid);
    void drainAll();
    void drain(RingBuffer& ring);
    void append(uint32_t cpu, std::string_view first, std::string_view second = {});
    void appendDiagnostic(std::string sentence);
    void flushFile();
    void warn(std::string sentence);
    void run();

    CpuRecordingOptions m_options;
    std::string m_path;
    int m_file = -1;
    std::vector<RingBuffer> m_rings;
    std::vector<std::pair<uint64_t, uint32_t>> m_eventIds; // (id, role) for the header
    std::vector<uint32_t> m_eventCpus;
    std::vector<char> m_pending; // chunks waiting to be written
    std::vector<char> m_wrapped; // a drain's records made contiguous where they wrap the ring
    std::vector<std::string> m_warnings;
    std::unique_ptr<PythonStackRecorder> m_python; // with stacks sampled
    uint64_t m_sampleType = 0;
    uint64_t m_bytes = 0;
    std::atomic<bool> m_stopping {false};
    bool m_stopped = false;
    std::thread m_reader;
};

} // namespace sightline::collector
