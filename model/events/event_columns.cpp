#include "model/events/event_columns.h"

#include <array>

namespace sightline {
namespace {

constexpr std::array<EventColumnSpec, kEventColumnCount> kColumns {{
    {"Name", "Name", "", false, false},
    {"Start", "Start", "ns", true, false},
    {"Duration", "Duration", "ns", true, true},
    {"End", "End", "ns", true, false},
    {"Thread / Stream", "Thread / Stream", "", false, false},
    {"Device / Context", "Device / Context", "", false, false},
    {"Grid", "Grid", "", true, true},
    {"Block", "Block", "", true, true},
    {"Registers", "Registers per thread", "", true, true},
    {"Shared memory", "Shared memory", "bytes", true, true},
    {"Bytes", "Bytes", "", true, true},
    {"Throughput", "Throughput", "bytes/s", true, true},
    {"Copy kind", "Copy kind", "", false, false},
    {"Memory kinds", "Memory kinds", "", false, false},
    {"Correlation id", "Correlation id", "", true, false},
    {"Return value", "Return value", "", true, false},
    {"Domain", "Domain", "", false, false},
    {"Value", "Value", "", true, true},
}};

} // namespace

const EventColumnSpec& columnSpec(EventColumn column)
{
    return kColumns[size_t(column)];
}

std::string csvHeader(EventColumn column)
{
    const EventColumnSpec& spec = columnSpec(column);
    std::string header(spec.csvName);
    if (!spec.unit.empty()) header.append(" (").append(spec.unit).append(")");
    return header;
}

bool columnApplies(EventColumn column, TrackKind kind)
{
    switch (column) {
    case EventColumn::Name:
    case EventColumn::Start:
    case EventColumn::Duration:
    case EventColumn::End:
    case EventColumn::ThreadOrStream:
        return true;
    case EventColumn::DeviceContext:
        return isGpuKind(kind);
    case EventColumn::Grid:
    case EventColumn::Block:
    case EventColumn::Registers:
    case EventColumn::SharedMemory:
        return eventKind(kind).columns.launch;
    case EventColumn::Bytes:
    case EventColumn::Throughput:
    case EventColumn::CopyKind:
    case EventColumn::MemoryKinds:
        return eventKind(kind).columns.transfer;
    case EventColumn::Correlation:
        return hasCorrelation(kind);
    case EventColumn::ReturnValue:
        return eventKind(kind).columns.returnValue;
    case EventColumn::Domain:
        return eventKind(kind).columns.domain;
    case EventColumn::Value:
    case EventColumn::Count:
        break;
    }
    return false;
}

bool columnAppliesToSamples(EventColumn column)
{
    return column == EventColumn::Name || column == EventColumn::Start || column == EventColumn::Duration
        || column == EventColumn::End || column == EventColumn::Value;
}

std::vector<EventColumn> columnsOf(TrackKind kind)
{
    std::vector<EventColumn> columns;
    for (int c = 0; c < kEventColumnCount; ++c)
        if (columnApplies(EventColumn(c), kind)) columns.push_back(EventColumn(c));
    return columns;
}

} // namespace sightline
