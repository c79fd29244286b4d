// Every event's name as a dense "name key", so that filtering and sorting by name cost one
// array lookup per row: a match or a sort rank is worked out once per distinct name. A key is
// the event's StringId when it carries a name; a memory or synchronization event whose name
// column is empty gets a key past the string table for its descriptor's derived name
// ("[CUDA memcpy Host-to-Device]"). Invariant: key < keyCount() and text(key) is the name the
// table shows. Immutable after construction, safe to read from several threads.
#pragma once

#include "model/trace/trace.h"

#include <string>
#include <string_view>
#include <vector>

namespace sightline::views {

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
    uint32_t key(EventRef event) const { return key(m_trace.track(event.track), event.index); }

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
    std::vector<std::string> m_derived; // memory operations, then synchronization operations
};

} // namespace sightline::views
