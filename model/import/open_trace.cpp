#include "model/import/open_trace.h"

#include "model/derived/projected_nvtx_tracks.h"
#include "model/format/container.h"
#include "model/import/importers.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

namespace sightline {
namespace {

constexpr std::string_view kSqliteHeader {"SQLite format 3\0", 16};

TraceFileKind kindOfBytes(std::string_view head)
{
    if (head.starts_with(rep::kMagic)) return TraceFileKind::Report;
    if (head.starts_with(kSqliteHeader)) return TraceFileKind::NsysSqlite;
    if (head.size() >= 2 && uint8_t(head[0]) == 0x1f && uint8_t(head[1]) == 0x8b)
        return TraceFileKind::ChromeTrace;
    if (head.starts_with("\xEF\xBB\xBF")) head.remove_prefix(3); // UTF-8 byte order mark
    const size_t first = head.find_first_not_of(" \t\r\n");
    if (first != std::string_view::npos && (head[first] == '{' || head[first] == '['))
        return TraceFileKind::ChromeTrace;
    return TraceFileKind::Unknown;
}

// The first bytes of the file, enough to tell its kind.
Result<std::string> readHead(const std::string& path)
{
    std::ifstream in(path, std::ios::binary);
    if (!in) return Result<std::string>::failure("Cannot open '" + path + "': " + std::strerror(errno) + ".");
    std::string head(512, '\0');
    in.read(head.data(), std::streamsize(head.size()));
    head.resize(size_t(in.gcount()));
    return head;
}

// The trace as the reader of the file's kind gives it.
Result<Trace> readTraceFile(const std::string& path, const ReadOptions& options)
{
    namespace fs = std::filesystem;
    std::error_code ec;
    if (fs::is_directory(path, ec))
        return Result<Trace>::failure(
            "Cannot open '" + path + "': it is a folder; give the path of a report or trace file.");
    const Result<std::string> read = readHead(path);
    if (!read) return Result<Trace>::failure(read.error());
    const std::string& head = read.value();
    if (head.empty())
        return Result<Trace>::failure(
            "Cannot open '" + path + "': the file is empty, so it holds no report or trace.");
    switch (kindOfBytes(head)) {
    case TraceFileKind::Report:
        return readReport(path, options);
    case TraceFileKind::NsysSqlite:
        return importNsysSqlite(path, options);
    case TraceFileKind::ChromeTrace:
        return importChromeTrace(path, options);
    case TraceFileKind::Unknown:
        break;
    }
    const std::string extension = fs::path(path).extension().string();
    if (extension == ".nsys-rep" || extension == ".qdrep")
        return Result<Trace>::failure("Cannot open '" + path + "': Sightline does not read " + extension
            + " files directly; convert it with 'nsys export --type sqlite " + path
            + "' and open the .sqlite file.");
    return Result<Trace>::failure("Cannot open '" + path
        + "': it is neither a Sightline report, an Nsight Systems SQLite export nor a "
          "Chrome trace (PyTorch profiler) JSON file; check that you chose the right file.");
}

} // namespace

TraceFileKind sniffTraceFile(const std::string& path)
{
    const Result<std::string> head = readHead(path);
    return head ? kindOfBytes(head.value()) : TraceFileKind::Unknown;
}

Result<Trace> openTrace(const std::string& path, const ReadOptions& options)
{
    Result<Trace> opened = readTraceFile(path, options);
    const bool cancelled = options.cancel && options.cancel->load();
    if (opened && options.deriveTracks && !cancelled) addProjectedNvtxTracks(opened.value(), options.threads);
    return opened;
}

} // namespace sightline
