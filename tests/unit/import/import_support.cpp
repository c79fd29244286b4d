#include "import_support.h"

#include "../../test_paths.h"
#include "model/trace/event_access.h"

#include <algorithm>
#include <catch2/catch.hpp>
#include <fstream>
#include <map>
#include <sqlite3.h>
#include <sstream>
#include <stdexcept>
#include <zlib.h>

namespace sightline::test {

std::string readWholeFile(const std::filesystem::path& path)
{
    gzFile file = gzopen(path.c_str(), "rb"); // reads plain files unchanged
    if (!file) throw std::runtime_error("cannot open " + path.string());
    std::string content;
    char buffer[1 << 16];
    int got = 0;
    while ((got = gzread(file, buffer, sizeof buffer)) > 0)
        content.append(buffer, size_t(got));
    gzclose(file);
    if (got < 0) throw std::runtime_error("cannot read " + path.string());
    return content;
}

std::string readWholeFileRaw(const std::filesystem::path& path)
{
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void makeDatabase(const std::filesystem::path& path, const std::string& sql)
{
    std::filesystem::remove(path);
    sqlite3* db = nullptr;
    REQUIRE(sqlite3_open(path.c_str(), &db) == SQLITE_OK);
    char* error = nullptr;
    const int status = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &error);
    INFO((error ? error : ""));
    sqlite3_free(error);
    sqlite3_close(db);
    REQUIRE(status == SQLITE_OK);
}

void writeFile(const std::filesystem::path& path, const std::string& content)
{
    std::ofstream out(path, std::ios::binary);
    out << content;
}

void writeGzipFile(const std::filesystem::path& path, const std::string& content)
{
    gzFile file = gzopen(path.c_str(), "wb");
    gzwrite(file, content.data(), unsigned(content.size()));
    gzclose(file);
}

namespace {

std::string keyText(const Trace& trace, const TrackKey& k)
{
    std::ostringstream out;
    out << "kind " << int(k.kind) << " pid " << k.pid.value << " tid " << k.tid.value << " domain "
        << k.domain.value << " (" << trace.domainName(k.domain) << ") device " << k.device.value
        << " context " << k.context.value << " stream " << k.stream.value;
    return out.str();
}

std::string eventLine(const Trace& trace, const Track& track, EventRef ref)
{
    std::ostringstream out;
    auto str = [&](StringId id) {
        std::string quoted(1, '\'');
        quoted += trace.strings[id];
        quoted += '\'';
        return quoted;
    };
    switch (track.key.kind) {
    case TrackKind::CudaApi: {
        const ApiCall e = apiCallAt(trace, ref);
        out << e.start << ' ' << e.end << ' ' << str(e.name) << " corr " << e.correlation.value << " class "
            << int(e.result.apiClass) << " ret " << e.result.returnCode;
        break;
    }
    case TrackKind::Kernels: {
        const KernelEvent e = kernelAt(trace, ref);
        const KernelLaunch& l = e.launch;
        out << e.start << ' ' << e.end << ' ' << str(e.name) << " corr " << e.correlation.value << " short "
            << str(l.shortName) << " mangled " << str(l.mangledName) << " grid " << l.grid[0] << 'x'
            << l.grid[1] << 'x' << l.grid[2] << " block " << l.block[0] << 'x' << l.block[1] << 'x'
            << l.block[2] << " reg " << l.registersPerThread << " smem " << l.staticSharedMemory << '+'
            << l.dynamicSharedMemory << " local " << l.localMemoryPerThread << '/' << l.localMemoryTotal
            << " launch " << int(l.launchType) << " graph " << l.graphId << '/' << l.graphNodeId;
        break;
    }
    case TrackKind::Memory: {
        const MemoryEvent e = memoryAt(trace, ref);
        const MemoryOp& op = e.op;
        out << e.start << ' ' << e.end << " corr " << e.correlation.value << " bytes " << e.bytes << " kind "
            << int(op.kind);
        if (op.kind == MemoryOpKind::Memset)
            out << " memkind " << int(op.srcKind) << " value " << op.memsetValue;
        else
            out << " copy " << int(op.copyKind) << " src " << int(op.srcKind) << " dst " << int(op.dstKind)
                << " devices " << op.srcDevice.value << "->" << op.dstDevice.value;
        break;
    }
    case TrackKind::Synchronization: {
        const SyncEvent e = syncAt(trace, ref);
        out << e.start << ' ' << e.end << " corr " << e.correlation.value << " type " << int(e.op.type)
            << " event " << e.op.eventId;
        break;
    }
    case TrackKind::Nvtx: {
        const NvtxEvent e = nvtxAt(trace, ref);
        const NvtxAttributes& a = e.attributes;
        out << e.start << ' ' << e.end << ' ' << str(e.name) << " style " << int(a.style) << " domain "
            << a.domain.value << " (" << trace.domainName(a.domain) << ") category " << a.category
            << " color " << (a.hasColor ? std::to_string(a.color) : "none") << " end thread "
            << a.endThread.value << " payload " << int(a.payloadType) << ':' << a.payload;
        break;
    }
    case TrackKind::OsRuntime: {
        const OsCall e = osCallAt(trace, ref);
        out << e.start << ' ' << e.end << ' ' << str(e.name) << " ret " << e.returnValue;
        break;
    }
    }
    return out.str();
}

template <class T, class Describe>
std::string compareLists(const std::string& what, std::vector<T> a, std::vector<T> b, Describe describe)
{
    std::vector<std::string> x, y;
    for (const T& v : a)
        x.push_back(describe(v));
    for (const T& v : b)
        y.push_back(describe(v));
    std::sort(x.begin(), x.end());
    std::sort(y.begin(), y.end());
    if (x == y) return {};
    for (size_t i = 0; i < std::min(x.size(), y.size()); ++i)
        if (x[i] != y[i]) return what + ": expected [" + x[i] + "] but got [" + y[i] + "]";
    return what + ": expected " + std::to_string(x.size()) + " entries but got " + std::to_string(y.size());
}

std::string metadataDifference(const ReportMetadata& a, const ReportMetadata& b)
{
    auto field = [](const char* name, const auto& x, const auto& y) -> std::string {
        if (x == y) return {};
        return std::string("metadata.") + name + " differs";
    };
    for (std::string d : {field("toolVersion", a.toolVersion, b.toolVersion),
             field("producer", a.producer, b.producer), field("commandLine", a.commandLine, b.commandLine),
             field("workingDirectory", a.workingDirectory, b.workingDirectory),
             field("hostname", a.hostname, b.hostname), field("osName", a.osName, b.osName),
             field("cpuModel", a.cpuModel, b.cpuModel), field("cpuCores", a.cpuCores, b.cpuCores),
             field("driverVersion", a.driverVersion, b.driverVersion),
             field("cudaVersion", a.cudaVersion, b.cudaVersion),
             field("cuptiVersion", a.cuptiVersion, b.cuptiVersion),
             field("startTimeUtcNs", a.startTimeUtcNs, b.startTimeUtcNs),
             field("options", a.options, b.options), field("environment", a.environment, b.environment)})
        if (!d.empty()) return d;
    return {};
}

std::string entityDifference(const Trace& a, const Trace& b)
{
    std::string d = compareLists("processes", a.processes, b.processes, [](const Process& p) {
        std::string text = std::to_string(p.pid.value) + " " + p.name;
        for (const std::string& arg : p.commandLine)
            text += " [" + arg + "]";
        return text;
    });
    if (d.empty())
        d = compareLists("threads", a.threads, b.threads, [](const Thread& t) {
            return std::to_string(t.pid.value) + "/" + std::to_string(t.tid.value) + " " + t.name;
        });
    if (d.empty())
        d = compareLists("gpus", a.gpus, b.gpus, [](const Gpu& g) {
            std::ostringstream out;
            out << g.device.value << ' ' << g.name << ' ' << g.uuid << ' ' << g.busId << ' ' << g.computeMajor
                << '.' << g.computeMinor << ' ' << g.smCount << ' ' << g.memoryBytes << ' ' << g.coreClockKHz;
            return out.str();
        });
    if (d.empty())
        d = compareLists("contexts", a.contexts, b.contexts, [](const CudaContext& c) {
            return std::to_string(c.pid.value) + " " + std::to_string(c.device.value) + " "
                + std::to_string(c.context.value);
        });
    if (d.empty())
        d = compareLists("streams", a.streams, b.streams, [](const CudaStream& s) {
            return std::to_string(s.pid.value) + " " + std::to_string(s.device.value) + " "
                + std::to_string(s.context.value) + " " + std::to_string(s.stream.value) + " prio "
                + std::to_string(s.priority) + (s.isDefault ? " default" : "");
        });
    if (d.empty())
        d = compareLists("domains", a.domains, b.domains,
            [](const NvtxDomain& x) { return std::to_string(x.id.value) + " " + x.name; });
    return d;
}

} // namespace

std::vector<std::string> eventLines(const Trace& trace, const Track& track)
{
    std::vector<std::string> lines;
    const TrackId id(uint32_t(&track - trace.tracks.data()));
    for (uint32_t i = 0; i < track.size(); ++i)
        lines.push_back(eventLine(trace, track, {id, i}));
    std::sort(lines.begin(), lines.end());
    return lines;
}

std::string semanticDifference(
    const Trace& expected, const Trace& actual, const SemanticCompareOptions& options)
{
    if (options.metadata)
        if (std::string d = metadataDifference(expected.metadata, actual.metadata); !d.empty()) return d;
    if (options.entities)
        if (std::string d = entityDifference(expected, actual); !d.empty()) return d;
    if (options.diagnostics) {
        auto text = [](const Diagnostic& x) { return std::to_string(int(x.severity)) + " " + x.text; };
        if (std::string d = compareLists("diagnostics", expected.diagnostics, actual.diagnostics, text);
            !d.empty())
            return d;
    }
    std::map<std::string, const Track*> a, b;
    for (const Track& t : expected.tracks)
        if (t.size()) a[keyText(expected, t.key)] = &t;
    for (const Track& t : actual.tracks)
        if (t.size()) b[keyText(actual, t.key)] = &t;
    for (const auto& [key, track] : a)
        if (!b.count(key)) return "track missing: " + key;
    for (const auto& [key, track] : b)
        if (!a.count(key)) return "unexpected track: " + key;
    for (const auto& [key, track] : a) {
        const std::vector<std::string> x = eventLines(expected, *track);
        const std::vector<std::string> y = eventLines(actual, *b[key]);
        if (x.size() != y.size())
            return key + ": " + std::to_string(x.size()) + " events expected, " + std::to_string(y.size())
                + " found";
        for (size_t i = 0; i < x.size(); ++i)
            if (x[i] != y[i]) return key + ": expected event [" + x[i] + "] but got [" + y[i] + "]";
        if (track->laneCount() != b[key]->laneCount() || track->nested != b[key]->nested)
            return key + ": the lanes differ";
    }
    return {};
}

std::vector<std::filesystem::path> sharedTraceFiles(const std::vector<std::string>& suffixes)
{
    const std::filesystem::path folder = sharedTraces();
    if (folder.empty()) {
        WARN("The shared real-traces folder (" SIGHTLINE_SHARED_TRACES
             ") is absent; skipping the checks on real files.");
        return {};
    }
    std::vector<std::filesystem::path> files;
    for (const auto& entry : std::filesystem::directory_iterator(folder))
        for (const std::string& suffix : suffixes)
            if (entry.path().filename().string().ends_with(suffix)) {
                files.push_back(entry.path());
                break;
            }
    std::sort(files.begin(), files.end());
    if (files.empty()) WARN("No " << suffixes.front() << " files in " << folder.string() << "; skipping.");
    return files;
}

} // namespace sightline::test
