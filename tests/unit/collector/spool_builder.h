// SpoolBuilder: writes a spool file record by record, in memory, exactly as the injection
// library lays it out; the collector tests and the processing benchmark feed the launcher with
// it, without the injection library or a GPU.
#pragma once

#include "collector/spool/spool_format.h"

#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::test {

// Builds a spool file in memory exactly as the injection library lays it out.
class SpoolBuilder
{
public:
    SpoolBuilder(uint32_t pid, spool::TickSource ticks = spool::TickSource::MonotonicNs, uint32_t ppid = 1);

    // Appends a record struct whose header is filled here; `text` follows it.
    template <class R> R& add(spool::RecordType type, R record, std::string_view text = {}, uint32_t tid = 0)
    {
        const uint32_t bytes = spool::paddedRecordBytes(sizeof(R), uint32_t(text.size()));
        record.header = {type, uint16_t(bytes), tid};
        const size_t at = m_bytes.size();
        m_bytes.resize(at + bytes, 0);
        std::memcpy(m_bytes.data() + at, &record, sizeof(R));
        std::memcpy(m_bytes.data() + at + sizeof(R), text.data(), text.size());
        return *reinterpret_cast<R*>(m_bytes.data() + at);
    }
    void addRaw(const void* data, size_t bytes);
    void addString(uint32_t id, std::string_view text);
    void addProcessText(spool::ProcessTextKind kind, std::string_view text);
    void addClockSync(uint64_t ticks, int64_t monotonicNs);

    const std::vector<unsigned char>& bytes() const { return m_bytes; }
    void writeTo(const std::string& path, size_t cutAt = SIZE_MAX) const;

private:
    std::vector<unsigned char> m_bytes;
};

// A recording of CUDA work as the injection library writes it after a long training run: one
// launching thread, each launch a cudaLaunchKernel record and its kernel on one of 4 streams
// (a launch every 5 us; kernels of 2 to 40 us queue up), every 50th a copy, and a second
// thread waiting on a stream every 100th step. `events` counts API calls and GPU operations.
SpoolBuilder cudaRecording(uint32_t pid, size_t events);

} // namespace sightline::test
