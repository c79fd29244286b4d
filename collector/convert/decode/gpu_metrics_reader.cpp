#include "collector/convert/decode/gpu_metrics_reader.h"

#include "collector/spool/gpu_metrics_file.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>

namespace sightline::collector {

namespace gm = spool::gpu_metrics;

namespace {

// Reads little-endian values and NUL-terminated strings from a record, never past its end.
class Cursor
{
public:
    Cursor(const char* data, size_t size)
        : m_data(data)
        , m_left(size)
    { }
    template <class T> bool read(T& out)
    {
        if (m_left < sizeof(T)) return false;
        std::memcpy(&out, m_data, sizeof(T));
        m_data += sizeof(T);
        m_left -= sizeof(T);
        return true;
    }
    bool text(std::string& out)
    {
        const void* end = std::memchr(m_data, '\0', m_left);
        if (!end) return false;
        out.assign(m_data, static_cast<const char*>(end));
        m_left -= out.size() + 1;
        m_data += out.size() + 1;
        return true;
    }
    std::string rest() const { return std::string(m_data, m_left); }
    size_t left() const { return m_left; }

private:
    const char* m_data;
    size_t m_left;
};

bool readSamples(Cursor& c, GpuMetricsCapture& out)
{
    uint32_t series = 0, samples = 0;
    if (!c.read(series) || !c.read(samples) || series != out.series.size()) return false;
    // 16 bytes of times and 8 per series value for each sample, all present.
    if (uint64_t(samples) * (16 + 8 * uint64_t(series)) != c.left()) return false;
    const size_t first = out.starts.size();
    for (uint32_t i = 0; i < samples; ++i) {
        int64_t start = 0, end = 0;
        c.read(start);
        c.read(end);
        if (end <= start || (!out.starts.empty() && start <= out.starts.back())) {
            out.starts.resize(first);
            out.ends.resize(first);
            return false;
        }
        out.starts.push_back(start);
        out.ends.push_back(end);
    }
    out.values.resize(series);
    for (uint32_t s = 0; s < series; ++s)
        for (uint32_t i = 0; i < samples; ++i) {
            double value = 0;
            c.read(value);
            out.values[s].push_back(value);
        }
    return true;
}

} // namespace

GpuMetricsCapture readGpuMetricsFile(const std::string& path)
{
    GpuMetricsCapture out;
    auto problem = [&](const std::string& what) {
        out.diagnostics.push_back(
            {Severity::Warning, kGpuMetricsSource, "The GPU metrics file " + path + " " + what});
    };
    std::ifstream file(path, std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    if (bytes.size() < gm::kFileHeaderBytes || std::string_view(bytes).substr(0, 8) != gm::kMagic) {
        problem("is not a metrics file; its samples are lost.");
        return out;
    }
    size_t offset = gm::kFileHeaderBytes;
    while (offset < bytes.size()) {
        uint32_t type = 0, size = 0;
        if (bytes.size() - offset < gm::kRecordHeaderBytes) break;
        std::memcpy(&type, bytes.data() + offset, 4);
        std::memcpy(&size, bytes.data() + offset + 4, 4);
        if (bytes.size() - offset - gm::kRecordHeaderBytes < size) break;
        Cursor c(bytes.data() + offset + gm::kRecordHeaderBytes, size);
        offset += gm::kRecordHeaderBytes + size;
        bool ok = true;
        switch (gm::RecordType(type)) {
        case gm::RecordType::Device:
            ok = c.read(out.ordinal) && c.text(out.name) && c.text(out.uuid) && c.text(out.chip);
            out.hasDevice = ok;
            break;
        case gm::RecordType::Series: {
            GpuMetricsCapture::Series s;
            ok = out.starts.empty() && c.read(s.resolution) && s.resolution > 0 && c.text(s.name)
                && c.text(s.unit) && c.text(s.description);
            if (ok) out.series.push_back(s);
            break;
        }
        case gm::RecordType::Samples:
            ok = readSamples(c, out);
            break;
        case gm::RecordType::Diagnostic: {
            uint32_t severity = 0;
            ok = c.read(severity);
            if (ok)
                out.diagnostics.push_back(
                    {Severity(std::min<uint32_t>(severity, 2)), kGpuMetricsSource, c.rest()});
            break;
        }
        default:
            ok = false;
        }
        if (!ok) {
            problem("is damaged at byte " + std::to_string(offset - size - gm::kRecordHeaderBytes)
                + "; the samples after it are lost.");
            return out;
        }
    }
    if (offset < bytes.size())
        problem("was cut short (the sampler stopped early); its last samples are lost.");
    return out;
}

std::vector<GpuMetricsCapture> readGpuMetricsFiles(const std::string& spoolDir)
{
    std::vector<std::string> paths;
    std::error_code error;
    for (const auto& entry : std::filesystem::directory_iterator(spoolDir, error)) {
        const std::string name = entry.path().filename().string();
        if (name.starts_with(gm::kFilePrefix) && name.ends_with(gm::kFileSuffix))
            paths.push_back(entry.path().string());
    }
    std::sort(paths.begin(), paths.end());
    std::vector<GpuMetricsCapture> captures;
    for (const std::string& path : paths)
        captures.push_back(readGpuMetricsFile(path));
    return captures;
}

} // namespace sightline::collector
