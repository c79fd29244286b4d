// Find (Ctrl+F): events whose name contains a text or matches a regular expression, stepped
// through in time order across every row. The pattern is tested once per distinct name (the
// string table), never per event; stepping then scans each lane forward or backward from the
// current position only as far as the best match found so far, so a nearby match costs little
// even in a trace of 100M events. Order: by start, then track, then index; it wraps around.
// How many events match is a sum over the matching names of their event counts, which are
// counted once, on the first pattern.
#pragma once

#include "model/common/result.h"
#include "model/trace/trace.h"

#include <QString>
#include <optional>
#include <vector>

namespace sightline::views {

enum class FindDirection : uint8_t { Next, Previous };

struct FindPosition
{
    Timestamp start = 0;
    EventRef event;
    friend auto operator<=>(const FindPosition&, const FindPosition&) = default;
};

class EventFinder
{
public:
    explicit EventFinder(const Trace& trace);

    // Sets the pattern; a failure says what is wrong with it.
    Status setPattern(const QString& pattern, bool regex, bool caseSensitive);
    bool hasPattern() const { return m_active; }
    // How many distinct event names match.
    size_t matchingNames() const { return m_matchingNames; }
    // How many events (instances, in every row) match.
    uint64_t matchingEvents() const { return m_matchingEvents; }

    // The first match after (or before) `from` in time order; wraps around the trace's ends.
    // Without `from`, the first (or last) match of the trace.
    std::optional<EventRef> step(std::optional<FindPosition> from, FindDirection direction) const;
    // The first match at or after time t (for "find from here").
    std::optional<EventRef> firstFrom(Timestamp t) const;

    FindPosition positionOf(EventRef event) const;

private:
    bool matches(const Track& track, uint32_t index) const;
    void countEventsPerName();
    std::optional<FindPosition> scanForward(const FindPosition& after) const;
    std::optional<FindPosition> scanBackward(const FindPosition& before) const;

    const Trace& m_trace;
    std::vector<bool> m_nameMatches; // by StringId
    bool m_active = false;
    size_t m_matchingNames = 0;
    uint64_t m_matchingEvents = 0;
    std::vector<uint64_t> m_eventsPerName; // by StringId; empty until the first pattern
};

} // namespace sightline::views
