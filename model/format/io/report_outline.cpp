#include "model/format/report_outline.h"

#include "model/format/chunks/structure_chunks.h"
#include "model/format/frame_index.h"
#include "model/format/mapped_file.h"

namespace sightline {

uint64_t ReportOutline::eventCount() const
{
    uint64_t n = 0;
    for (const TrackOutline& t : tracks)
        n += t.events;
    return n;
}

uint64_t ReportOutline::eventCount(TrackKind kind) const
{
    uint64_t n = 0;
    for (const TrackOutline& t : tracks)
        if (t.key.kind == kind) n += t.events;
    return n;
}

Result<std::optional<ReportOutline>> readReportOutline(const std::string& path)
{
    using Outcome = Result<std::optional<ReportOutline>>;
    MappedFile mapped;
    if (Status opened = mapped.open(path, MappedFile::Access::Sparse); !opened)
        return Outcome::failure(opened.error());
    const auto file = mapped.bytes();
    // Only the small chunks are read: the batches' pages stay on disk.
    const Result<rep::FrameIndex> indexed
        = rep::indexFrames(file, path, [](rep::ChunkKind kind) { return !rep::isBatch(kind); });
    if (!indexed) return Outcome::failure(indexed.error());
    const rep::FrameIndex& index = indexed.value();
    if (index.formatMinor < 1 || !index.complete) return std::optional<ReportOutline>();

    ReportOutline outline;
    const auto visit = [&](const rep::Chunk& chunk, const rep::FrameRef& frame) -> Status {
        if (chunk.has_tracks()) {
            const Result<std::vector<Track>> tracks
                = rep::tracksFromChunk(chunk.tracks(), path, frame.offset);
            if (!tracks) return Status::failure(tracks.error());
            for (const Track& track : tracks.value())
                outline.tracks.push_back({track.key, track.laneBegin.back(), track.laneCount()});
            outline.span = rep::storedSpan(chunk.tracks(), index.formatMinor);
        }
        if (chunk.has_counter_definitions()) {
            const auto& definitions = chunk.counter_definitions();
            for (const auto& s : definitions.series()) {
                if (s.timeline() >= uint32_t(definitions.timelines_size()))
                    return Status::failure(rep::damagedReport(
                        path, frame.offset, "a counter series refers to a missing timeline"));
                const auto& timeline = definitions.timelines(int(s.timeline()));
                CounterOutline counter;
                counter.series.source = CounterSource(uint8_t(s.source()));
                counter.series.device = DeviceId(s.device());
                counter.series.pid = Pid(s.pid());
                counter.series.timeline = s.timeline();
                counter.series.name = s.name();
                counter.series.unit = s.unit();
                counter.series.description = s.description();
                counter.samples = timeline.samples();
                counter.span = rep::storedSpan(timeline, index.formatMinor);
                outline.counters.push_back(std::move(counter));
            }
        }
        if (chunk.has_cpu_stacks()) {
            outline.cpuSamples = chunk.cpu_stacks().samples();
            outline.threadStates = chunk.cpu_stacks().states();
        }
        return {};
    };
    const Result<rep::StructureRead> read = rep::readStructureChunks(file, index, path, outline.base, visit);
    if (!read) return Outcome::failure(read.error());
    if (read->skippedChunks > 0)
        outline.base.diagnostics.push_back({Severity::Warning, "reader",
            std::to_string(read->skippedChunks)
                + " chunk(s) of a kind this Sightline does not know were skipped: the report was written by "
                  "a newer version; update Sightline to see everything in it."});
    outline.base.storedFormat = {index.formatMajor, index.formatMinor};
    return std::optional<ReportOutline>(std::move(outline));
}

ReportOutline outlineOf(Trace&& trace)
{
    ReportOutline outline;
    for (const Track& track : trace.tracks)
        outline.tracks.push_back({track.key, track.size(), track.laneCount()});
    for (const CounterSeries& series : trace.counterSeries) {
        if (series.source == CounterSource::CpuUtilization) continue; // derived from the CPU rows
        const CounterTimeline& timeline = trace.timelineOf(series);
        CounterOutline counter;
        counter.series = series;
        counter.series.values.clear();
        counter.samples = timeline.size();
        if (!timeline.starts.empty()) counter.span = TimeRange {timeline.starts.front(), timeline.end};
        outline.counters.push_back(std::move(counter));
    }
    outline.cpuSamples = trace.cpu.samples.size();
    outline.threadStates = trace.cpu.states.size();
    outline.span = trace.dataSpan();
    outline.base = std::move(trace);
    outline.base.tracks.clear();
    outline.base.counterTimelines.clear();
    outline.base.counterSeries.clear();
    outline.base.cpu = {};
    return outline;
}

} // namespace sightline
