// What one event puts in each column (event_columns.h), read straight from the Trace's columnar
// arrays when a cell is asked for (nothing is copied up front). Display text is what the
// Events View shows ("12.346 µs"); CSV text is what every CSV of events writes (plain numbers
// in the unit its header names). Per-track labels (thread, stream, device) are built once in
// the constructor, so an EventCells is immutable afterwards and safe to read from worker
// threads (CSV export, sort keys). Counter sample rows (event_names.h) fill Name (the series),
// Start, Duration, End and Value (with the series' unit).
#pragma once

#include "model/events/event_columns.h"
#include "model/events/event_names.h"
#include "model/trace/trace.h"

#include <optional>
#include <string>
#include <vector>

namespace sightline {

class EventCells
{
public:
    explicit EventCells(const Trace& trace);

    const Trace& trace() const { return m_trace; }
    const EventNames& names() const { return m_names; }

    // The text shown in the table; empty where the column does not apply.
    std::string display(EventRef event, EventColumn column) const;
    // The text a CSV writes; empty where the column does not apply. It views text the cells
    // keep (names, labels) or `scratch`, which it fills for text made for the cell (numbers),
    // so writing millions of cells allocates nothing per cell.
    std::string_view csv(EventRef event, EventColumn column, std::string& scratch) const;
    // A longer description for the cell's tooltip (the full name, the shared memory split).
    std::string tooltip(EventRef event, EventColumn column) const;

    // The integer behind a numeric column, if the event has one (Start, Duration, End,
    // Registers, Shared memory, Bytes, Correlation id, Return value).
    std::optional<int64_t> number(EventRef event, EventColumn column) const;
    // Bytes per second of a memory operation; no value for other kinds or a zero duration.
    std::optional<double> throughput(EventRef event) const;
    // The value of a counter sample; no value for events and unknown (NaN) samples.
    std::optional<double> sampleValue(EventRef row) const;
    // "python [1234]" for host tracks, "Stream 7" for GPU tracks.
    const std::string& threadOrStreamLabel(TrackId track) const { return m_threadOrStream[track.value]; }
    // "GPU 0 / Context 1" for GPU tracks, empty for host tracks.
    const std::string& deviceContextLabel(TrackId track) const { return m_deviceContext[track.value]; }
    // "Kernels · Stream 7 (GPU 0 / Context 1)", "CUDA API · python [1234]": one track's title.
    std::string trackTitle(TrackId track) const;
    // The NVTX domain name of an NVTX event ("default" for the default domain).
    std::string_view domainLabel(EventRef event) const;
    // "HtoD", "Memset".
    std::string_view copyKindLabel(EventRef event) const;
    // "Pageable → Device" in the table, "Pageable->Device" in a CSV; "Device" for a memset.
    std::string memoryKindsLabel(EventRef event, bool forCsv = false) const;

private:
    // The sample's series, or null for an event.
    const CounterSeries* seriesOf(EventRef row) const;
    std::string sampleValueText(EventRef row) const;
    const KernelLaunch* launchOf(EventRef event) const;
    const MemoryOp* memoryOpOf(EventRef event) const;
    // A kernel's Grid or Block: "(256, 1, 1)" in the table, "256x1x1" in a CSV.
    std::string launchShape(EventRef event, EventColumn column, bool forCsv) const;
    std::optional<int64_t> sampleNumber(EventRef row, const CounterSeries& series, EventColumn column) const;

    const Trace& m_trace;
    EventNames m_names;
    std::vector<std::string> m_threadOrStream; // by track
    std::vector<std::string> m_deviceContext; // by track
};

} // namespace sightline
