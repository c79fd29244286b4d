#include "views/timeline/interaction/event_finder.h"

#include <QRegularExpression>
#include <limits>

namespace sightline::views {
namespace {

constexpr FindPosition kBeforeAll {std::numeric_limits<Timestamp>::min(), {}};
constexpr FindPosition kAfterAll {std::numeric_limits<Timestamp>::max(), {TrackId(~0u), ~0u}};

} // namespace

EventFinder::EventFinder(const Trace& trace)
    : m_trace(trace)
{ }

Status EventFinder::setPattern(const QString& pattern, bool regex, bool caseSensitive)
{
    m_active = false;
    m_matchingNames = 0;
    m_matchingEvents = 0;
    m_nameMatches.assign(m_trace.strings.size(), false);
    if (pattern.isEmpty()) return {};
    QRegularExpression expression;
    if (regex) {
        expression.setPattern(pattern);
        if (!caseSensitive) expression.setPatternOptions(QRegularExpression::CaseInsensitiveOption);
        if (!expression.isValid())
            return Status::failure(
                QStringLiteral("The regular expression is not valid (%1); correct it or untick Regex.")
                    .arg(expression.errorString())
                    .toStdString());
    }
    if (m_eventsPerName.empty()) countEventsPerName();
    const Qt::CaseSensitivity sensitivity = caseSensitive ? Qt::CaseSensitive : Qt::CaseInsensitive;
    for (uint32_t id = 1; id < m_trace.strings.size(); ++id) {
        const std::string_view raw = m_trace.strings[StringId(id)];
        const QString name = QString::fromUtf8(raw.data(), qsizetype(raw.size()));
        const bool hit = regex ? expression.match(name).hasMatch() : name.contains(pattern, sensitivity);
        m_nameMatches[id] = hit;
        m_matchingNames += hit ? 1 : 0;
        m_matchingEvents += hit ? m_eventsPerName[id] : 0;
    }
    m_active = true;
    return {};
}

void EventFinder::countEventsPerName()
{
    m_eventsPerName.assign(m_trace.strings.size(), 0);
    for (const Track& track : m_trace.tracks)
        for (const StringId name : track.events.name)
            if (name.value < m_eventsPerName.size()) ++m_eventsPerName[name.value];
}

bool EventFinder::matches(const Track& track, uint32_t index) const
{
    const uint32_t name = track.events.name[index].value;
    return name < m_nameMatches.size() && m_nameMatches[name];
}

FindPosition EventFinder::positionOf(EventRef event) const
{
    return {m_trace.track(event.track).events.start[event.index], event};
}

std::optional<FindPosition> EventFinder::scanForward(const FindPosition& after) const
{
    std::optional<FindPosition> best;
    for (uint32_t t = 0; t < m_trace.tracks.size(); ++t) {
        const Track& track = m_trace.tracks[t];
        for (uint32_t l = 0; l < track.laneCount(); ++l) {
            const IndexRange lane = track.lane(l);
            const TimeRange fromAfter {after.start, std::numeric_limits<Timestamp>::max()};
            for (uint32_t i = m_trace.eventsStartingIn(TrackId(t), l, fromAfter).begin; i < lane.end; ++i) {
                const FindPosition here {track.events.start[i], {TrackId(t), i}};
                if (best && here.start > best->start) break;
                if (here <= after || !matches(track, i)) continue;
                if (!best || here < *best) best = here;
                break;
            }
        }
    }
    return best;
}

std::optional<FindPosition> EventFinder::scanBackward(const FindPosition& before) const
{
    std::optional<FindPosition> best;
    const Timestamp limit
        = before.start == std::numeric_limits<Timestamp>::max() ? before.start : before.start + 1;
    for (uint32_t t = 0; t < m_trace.tracks.size(); ++t) {
        const Track& track = m_trace.tracks[t];
        for (uint32_t l = 0; l < track.laneCount(); ++l) {
            const IndexRange lane = track.lane(l);
            const uint32_t end = before.start == std::numeric_limits<Timestamp>::max()
                ? lane.end
                : m_trace
                      .eventsStartingIn(
                          TrackId(t), l, TimeRange {std::numeric_limits<Timestamp>::min(), limit})
                      .end;
            for (uint32_t i = end; i-- > lane.begin;) {
                const FindPosition here {track.events.start[i], {TrackId(t), i}};
                if (best && here.start < best->start) break;
                if (here >= before || !matches(track, i)) continue;
                if (!best || here > *best) best = here;
                break;
            }
        }
    }
    return best;
}

std::optional<EventRef> EventFinder::step(std::optional<FindPosition> from, FindDirection direction) const
{
    if (!m_active || m_matchingNames == 0) return std::nullopt;
    std::optional<FindPosition> found;
    if (direction == FindDirection::Next) {
        found = scanForward(from.value_or(kBeforeAll));
        if (!found && from) found = scanForward(kBeforeAll);
    } else {
        found = scanBackward(from.value_or(kAfterAll));
        if (!found && from) found = scanBackward(kAfterAll);
    }
    if (!found) return std::nullopt;
    return found->event;
}

std::optional<EventRef> EventFinder::firstFrom(Timestamp t) const
{
    if (!m_active || m_matchingNames == 0) return std::nullopt;
    FindPosition from {t, {}};
    if (t != std::numeric_limits<Timestamp>::min()) from.start = t - 1;
    from.event = {TrackId(~0u), ~0u};
    auto found = scanForward(from);
    if (!found) found = scanForward(kBeforeAll);
    return found ? std::optional<EventRef>(found->event) : std::nullopt;
}

} // namespace sightline::views
