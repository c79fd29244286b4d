// exportCsv: one RFC 4180 CSV file per kind of track, named by the table of event kinds
// (model/core/event_kinds.h: cuda_api.csv, nvtx.csv, ...), each the listing the Events View shows for every
// track of that kind: its columns (model/events/event_columns.h columnsOf), its rows in start order
// (model/events/event_rows.h collectRows) and its CSV text (events_text.h), so a file equals the view's
// Export CSV of the same events. All files are written to temporaries first and renamed only once every one
// is complete.
#include "model/events/event_rows.h"
#include "model/export/events_text.h"
#include "model/export/exporters.h"
#include "model/export/output_file.h"

#include <array>
#include <filesystem>
#include <memory>

namespace sightline {
namespace {

bool isFolderDestination(const std::string& destination)
{
    std::error_code ec;
    return destination.ends_with('/') || std::filesystem::is_directory(destination, ec);
}

// Every event of the trace's tracks of `kind`, listed as the Events View lists them.
std::vector<EventRef> eventsOfKind(const Trace& trace, TrackKind kind)
{
    EventSource source;
    for (uint32_t t = 0; t < trace.tracks.size(); ++t)
        if (trace.tracks[t].key.kind == kind) source.tracks.push_back(TrackId(t));
    return collectRows(trace, source);
}

} // namespace

std::vector<std::string> csvExportPaths(const std::string& destination)
{
    const bool folder = isFolderDestination(destination);
    std::vector<std::string> paths;
    for (const EventKindInfo& kind : kEventKinds) {
        if (folder)
            paths.push_back((std::filesystem::path(destination) / kind.csvFile).string());
        else
            paths.push_back(destination + "_" + kind.csvFile);
    }
    return paths;
}

Status exportCsv(const Trace& trace, const std::string& destination, const ExportOptions& options)
{
    if (destination.ends_with('/')) {
        std::error_code ec;
        std::filesystem::create_directory(destination, ec); // a missing parent is reported below
    }
    const std::vector<std::string> paths = csvExportPaths(destination);
    // Check every target before creating anything, so a refusal leaves no file behind.
    std::error_code ec;
    if (!options.overwrite)
        for (const std::string& path : paths)
            if (std::filesystem::exists(path, ec))
                return Status::failure("Cannot write '" + path
                    + "': the file already exists; choose another name or allow overwriting (--force).");

    std::array<std::unique_ptr<TextOutput>, kEventKinds.size()> files;
    for (size_t f = 0; f < kEventKinds.size(); ++f) {
        files[f] = std::make_unique<TextOutput>();
        if (Status opened = files[f]->open(paths[f], options.overwrite); !opened) return opened;
    }
    try {
        const EventCells cells(trace);
        for (size_t f = 0; f < kEventKinds.size(); ++f)
            writeEventRecords(
                *files[f], cells, eventsOfKind(trace, kEventKinds[f].kind), columnsOf(kEventKinds[f].kind));
    } catch (const std::bad_alloc&) {
        return Status::failure("Cannot write '" + paths[0]
            + "': out of memory while exporting; close other programs and try again.");
    }
    for (auto& file : files)
        if (Status finished = file->finish(); !finished) return finished;
    return {};
}

} // namespace sightline
