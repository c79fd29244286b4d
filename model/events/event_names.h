// Every event's name as a dense "name key", so that filtering and sorting by name cost one
// array lookup per row: a match or a sort rank is worked out once per distinct name. A key is
// the event's StringId when it carries a name; a memory or synchronization event whose name
// column is empty gets a key past the string table for its descriptor's derived name
// ("[CUDA memcpy Host-to-Device]"), and a counter sample the key of its series' name.
// Invariant: key < keyCount() and text(key) is the name the table shows. Immutable after
// construction, safe to read from several threads.
//
// Counter samples are listed like events: sample i of counter series s is the row
// EventRef {TrackId(trace.trackCount() + s), i}, an id past every track, so listing, sorting,
// copying and exporting treat both alike; EventNames and EventCells read such rows from the
// series, and nothing else may pass them to Trace::track().
#pragma once

#include "model/trace/trace.h"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sightline {

// The row of sample `sample` of counter series `series`.
inline EventRef counterSampleRow(const Trace& trace, uint32_t series, uint32_t sample)
{
    return {TrackId(uint32_t(trace.trackCount()) + series), sample};
}
// The counter series of a counter sample row; none for an event.
inline std::optional<uint32_t> counterSeriesOf(const Trace& trace, EventRef row)
{
    if (row.track.value < trace.trackCount()) return std::nullopt;
    return uint32_t(row.track.value - trace.trackCount());
}

class EventNames
{
public:
    explicit EventNames(const Trace& trace);

    uint32_t keyCount() const { return m_stringCount + uint32_t(m_derived.size()); }
    uint32_t key(const Track& track, uint32_t index) const
    {
        const StringId name = track.events.name[index];
        if (name.value != 0 || track.events.detail.empty()) return name.value;
        if (track.key.kind == TrackKind::Memory) return m_stringCount + track.events.detail[index];
        if (track.key.kind == TrackKind::Synchronization)
            return m_stringCount + m_memoryOpCount + track.events.detail[index];
        return 0;
    }
    uint32_t key(EventRef event) const
    {
        if (const auto series = counterSeriesOf(m_trace, event)) return m_counterNames + *series;
        return key(m_trace.track(event.track), event.index);
    }

    std::string_view text(uint32_t key) const
    {
        return key < m_stringCount ? m_trace.strings[StringId(key)]
                                   : std::string_view(m_derived[key - m_stringCount]);
    }
    std::string_view name(EventRef event) const { return text(key(event)); }

private:
    const Trace& m_trace;
    uint32_t m_stringCount = 0;
    uint32_t m_memoryOpCount = 0;
    uint32_t m_counterNames = 0; // the key of the first counter series' name
    std::vector<std::string> m_derived; // memory operations, synchronization operations, counter series
};

} // namespace sightline
