#include "spool_builder.h"

#include <algorithm>
#include <fstream>

namespace sightline::test {

SpoolBuilder::SpoolBuilder(uint32_t pid, spool::TickSource ticks, uint32_t ppid)
{
    const spool::FileHeader header = spool::makeFileHeader(pid, ppid, ticks);
    addRaw(&header, sizeof(header));
}

void SpoolBuilder::addRaw(const void* data, size_t bytes)
{
    const size_t at = m_bytes.size();
    m_bytes.resize(at + bytes);
    std::memcpy(m_bytes.data() + at, data, bytes);
}

void SpoolBuilder::addString(uint32_t id, std::string_view text)
{
    spool::StringRecord r {};
    r.id = id;
    r.textBytes = uint32_t(text.size());
    add(spool::RecordType::String, r, text);
}

void SpoolBuilder::addProcessText(spool::ProcessTextKind kind, std::string_view text)
{
    spool::ProcessTextRecord r {};
    r.kind = kind;
    r.textBytes = uint32_t(text.size());
    add(spool::RecordType::ProcessText, r, text);
}

void SpoolBuilder::addClockSync(uint64_t ticks, int64_t monotonicNs)
{
    spool::ClockSyncRecord r {};
    r.ticks = ticks;
    r.monotonicNs = monotonicNs;
    add(spool::RecordType::ClockSync, r);
}

void SpoolBuilder::writeTo(const std::string& path, size_t cutAt) const
{
    std::ofstream out(path, std::ios::binary);
    out.write(
        reinterpret_cast<const char*>(m_bytes.data()), std::streamsize(std::min(cutAt, m_bytes.size())));
}

namespace {

constexpr uint32_t kThread = 4243;
constexpr uint32_t kWaitingThread = 4244;
constexpr uint32_t kLaunchName = 1;
constexpr uint32_t kCopyName = 2;
constexpr uint32_t kWaitName = 3;
constexpr uint32_t kFirstKernelName = 10;
constexpr uint32_t kKernelNames = 40;

} // namespace

SpoolBuilder cudaRecording(uint32_t pid, size_t events)
{
    SpoolBuilder spool(pid);
    spool.addString(kLaunchName, "cudaLaunchKernel");
    spool.addString(kCopyName, "cudaMemcpyAsync");
    spool.addString(kWaitName, "cudaStreamSynchronize");
    for (uint32_t k = 0; k < kKernelNames; ++k)
        spool.addString(kFirstKernelName + k,
            "_ZN2at6native29vectorized_elementwise_kernelILi4ENS0_11FillFunctorIfEESt5arrayIPcLm1EEEEviT0_T1_"
                + std::to_string(k));
    spool::CudaContextRecord context {};
    context.context = 1;
    spool.add(spool::RecordType::CudaContext, context);

    int64_t streamFree[4] = {};
    int64_t now = 1'000'000;
    for (uint32_t correlation = 1; 2 * size_t(correlation) <= events; ++correlation, now += 5000) {
        const bool copy = correlation % 50 == 0;
        spool::CudaApiRecord api {};
        api.startNs = now;
        api.endNs = now + 3000;
        api.correlation = correlation;
        api.nameId = copy ? kCopyName : kLaunchName;
        spool.add(spool::RecordType::CudaApi, api, {}, kThread);
        if (correlation % 100 == 0) { // a second thread waits on a stream now and then
            spool::CudaApiRecord wait {};
            wait.startNs = now - 20000;
            wait.endNs = now + 1000;
            wait.correlation = 0;
            wait.nameId = kWaitName;
            spool.add(spool::RecordType::CudaApi, wait, {}, kWaitingThread);
        }

        const uint32_t stream = 7 + correlation % 4;
        const int64_t start = std::max(now + 4000, streamFree[stream - 7]);
        const int64_t end = start + 2000 + (correlation * 7919) % 38000;
        streamFree[stream - 7] = end;
        if (copy) {
            spool::CudaMemcpyRecord r {};
            r.startNs = start, r.endNs = end, r.bytes = 1 << 20;
            r.context = 1, r.stream = stream, r.correlation = correlation;
            r.copyKind = 1, r.srcKind = 1, r.dstKind = 3;
            spool.add(spool::RecordType::CudaMemcpy, r);
        } else {
            spool::CudaKernelRecord r {};
            r.startNs = start, r.endNs = end;
            r.context = 1, r.stream = stream, r.correlation = correlation;
            r.grid[0] = 1024, r.grid[1] = r.grid[2] = 1;
            r.block[0] = 256, r.block[1] = r.block[2] = 1;
            r.registersPerThread = 32;
            r.nameId = kFirstKernelName + correlation % kKernelNames;
            spool.add(spool::RecordType::CudaKernel, r);
        }
    }
    return spool;
}

} // namespace sightline::test
