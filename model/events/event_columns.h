// The columns of an event listing, the one schema the Events View shows and every CSV of events
// writes (its Export CSV and `sightline export --type csv`): each column's name, the unit of its
// plain values, how it sorts first, and which events have a value in it. What one event puts in
// a column is EventCells' business (event_cells.h); this file knows nothing of a Trace.
#pragma once

#include "model/core/track.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace sightline {

// In a namespace of its own only because GCC's -Wshadow takes the enumerator Duration for a
// second declaration of the type sightline::Duration when both are declared in one namespace.
namespace event_column {
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
} // namespace event_column
using event_column::EventColumn;
constexpr int kEventColumnCount = int(EventColumn::Count);

struct EventColumnSpec
{
    std::string_view name; // the table's header: "Duration"
    std::string_view csvName; // the CSV header before its unit: "Registers per thread"
    std::string_view unit; // of the plain (CSV) values: "ns", "bytes"; empty for none
    bool numeric; // numbers are right-aligned
    bool largestFirst; // measures sort largest first on the first click; names and times ascending
};

const EventColumnSpec& columnSpec(EventColumn column);

// The header a CSV writes: the CSV name and the unit of its values ("Duration (ns)").
std::string csvHeader(EventColumn column);

// Whether events of this kind have a value in the column.
bool columnApplies(EventColumn column, TrackKind kind);
// Whether counter samples have a value in the column.
bool columnAppliesToSamples(EventColumn column);
// The columns that apply to events of `kind`, in the table's order: what a listing of those
// events shows and writes.
std::vector<EventColumn> columnsOf(TrackKind kind);

} // namespace sightline
