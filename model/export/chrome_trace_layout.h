// Where each track of a Trace goes in a Chrome trace (Perfetto) file, which only knows
// processes and threads. Host processes keep their pid. A thread's CUDA API calls keep the
// thread's tid; its NVTX domains and OS runtime calls go to pseudo-threads of the same process
// ("python NVTX", "python OS runtime"), because their ranges are not nested inside each other
// and a Chrome trace thread must hold properly nested slices only. Each GPU becomes a pseudo-
// process "GPU N" whose pseudo-threads are its streams (kernels and memory operations share
// their stream's row; synchronization gets a row of its own). Pseudo ids start at 1 << 28,
// above any Linux pid or tid, so they never collide with real ones.
#pragma once

#include "model/trace/trace.h"

#include <map>
#include <string>
#include <tuple>
#include <vector>

namespace sightline {

struct ChromeRow
{
    int64_t pid = 0;
    int64_t tid = 0;
};

class ChromeTraceLayout
{
public:
    static constexpr int64_t kPseudoIdBase = int64_t(1) << 28;

    explicit ChromeTraceLayout(const Trace& trace);

    ChromeRow rowOf(TrackId track) const { return m_rows[track.value]; }

    struct ProcessEntry
    {
        int64_t pid = 0;
        std::string name; // empty: leave Perfetto's default
        std::string labels; // e.g. the GPU model
        int64_t sortIndex = 0;
    };
    struct ThreadEntry
    {
        int64_t pid = 0;
        int64_t tid = 0;
        std::string name;
        int64_t sortIndex = 0;
    };
    const std::vector<ProcessEntry>& processes() const { return m_processes; }
    const std::vector<ThreadEntry>& threads() const { return m_threads; }

    static int64_t gpuPid(DeviceId device) { return kPseudoIdBase + device.value; }

private:
    void placeHostTrack(const Trace& trace, TrackId id);
    void placeGpuTrack(const Trace& trace, TrackId id);
    void addThreadOnce(int64_t pid, int64_t tid, std::string name, int64_t sortIndex);
    int64_t newPseudoId() { return m_nextPseudoId++; }
    std::string threadLabel(Pid pid, Tid tid) const; // the thread's name, or "Thread <tid>"

    std::vector<ChromeRow> m_rows; // parallel to trace.tracks
    std::vector<ProcessEntry> m_processes;
    std::vector<ThreadEntry> m_threads;
    std::map<std::pair<int64_t, int64_t>, size_t> m_threadIndex; // (pid, tid) -> m_threads
    std::map<std::tuple<uint32_t, uint32_t, uint32_t, uint32_t>, int64_t>
        m_streamRows; // (device, pid, context, stream) -> tid
    std::map<uint32_t, size_t> m_ownersPerDevice; // (pid, context) pairs per device
    int64_t m_nextPseudoId = kPseudoIdBase;
};

} // namespace sightline
