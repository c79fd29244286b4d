// The Events View's columns and how one event fills them, read straight from the Trace's
// columnar arrays when a cell is asked for (nothing is copied up front). Display text is what
// the table shows ("12.346 µs"); raw text is what a CSV export writes (plain numbers in the
// unit named by the column's CSV header). Per-track labels (thread, stream, device) are built
// once in the constructor, so an EventCells is immutable afterwards and safe to read from
// worker threads (CSV export, sort keys). Counter sample rows (event_names.h) fill Name (the
// series), Start, Duration, End and Value (with the series' unit).
#pragma once

#include "model/trace/trace.h"
#include "views/events/event_names.h"

#include <QString>
#include <QVariant>
#include <Qt>
#include <optional>
#include <vector>

namespace sightline::views {

enum class EventColumn : uint8_t {
    Name,
    Start,
    Duration,
    End,
    ThreadOrStream,
    DeviceContext,
    Grid,
    Block,
    Registers,
    SharedMemory,
    Bytes,
    Throughput,
    CopyKind,
    MemoryKinds,
    Correlation,
    ReturnValue,
    Domain,
    Value, // a counter sample's value
    Count
};
constexpr int kEventColumnCount = int(EventColumn::Count);

QString columnTitle(EventColumn column);
// The header a CSV export writes, with the unit of its raw values ("Duration (ns)").
QString csvColumnTitle(EventColumn column);
// Whether events of this kind have a value in the column.
bool columnApplies(EventColumn column, TrackKind kind);
// Whether counter samples have a value in the column.
bool columnAppliesToSamples(EventColumn column);
// Measures (durations, sizes, counts) sort largest first on the first click; names and times
// sort ascending.
Qt::SortOrder firstClickOrder(EventColumn column);
// Numbers are right-aligned.
bool isNumericColumn(EventColumn column);
// What a table's header shows for the column in `role`: its title, alignment and tooltip (how
// a click sorts).
QVariant columnHeaderData(EventColumn column, int role);

// "CUDA API", "Kernels", ... : what a track of the kind holds.
QString trackKindLabel(TrackKind kind);

class EventCells
{
public:
    explicit EventCells(const Trace& trace);

    const Trace& trace() const { return m_trace; }
    const EventNames& names() const { return m_names; }

    // The text shown in the table; empty where the column does not apply.
    QString display(EventRef event, EventColumn column) const;
    // The text a CSV export writes; empty where the column does not apply.
    QString raw(EventRef event, EventColumn column) const;
    // A longer description for the cell's tooltip (the full name, the shared memory split).
    QString tooltip(EventRef event, EventColumn column) const;

    // The integer behind a numeric column, if the event has one (Start, Duration, End,
    // Registers, Shared memory, Bytes, Correlation id, Return value).
    std::optional<int64_t> number(EventRef event, EventColumn column) const;
    // Bytes per second of a memory operation; no value for other kinds or a zero duration.
    std::optional<double> throughput(EventRef event) const;
    // The value of a counter sample; no value for events and unknown (NaN) samples.
    std::optional<double> sampleValue(EventRef row) const;
    // "python [1234]" for host tracks, "Stream 7" for GPU tracks.
    const QString& threadOrStreamLabel(TrackId track) const { return m_threadOrStream[track.value]; }
    // "GPU 0 / Context 1" for GPU tracks, empty for host tracks.
    const QString& deviceContextLabel(TrackId track) const { return m_deviceContext[track.value]; }
    // "Kernels · Stream 7 (GPU 0 / Context 1)", "CUDA API · python [1234]": one track's title.
    QString trackTitle(TrackId track) const;
    // The NVTX domain name of an NVTX event ("default" for the default domain).
    QString domainLabel(EventRef event) const;
    QString copyKindLabel(EventRef event) const;
    QString memoryKindsLabel(EventRef event) const;

private:
    // The sample's series, or null for an event.
    const CounterSeries* seriesOf(EventRef row) const;
    QString sampleValueText(EventRef row) const;
    const KernelLaunch* launchOf(EventRef event) const;
    const MemoryOp* memoryOpOf(EventRef event) const;

    const Trace& m_trace;
    EventNames m_names;
    std::vector<QString> m_threadOrStream; // by track
    std::vector<QString> m_deviceContext; // by track
};

} // namespace sightline::views
