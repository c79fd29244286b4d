// The level-of-detail query (see lod.h): one walk along a lane, column boundary by column
// boundary, over the events (walk level 0) and the pyramid's blocks (walk level k >= 1 is the
// pyramid's level k - 1).
#include "model/index/lod.h"

#include <algorithm>
#include <limits>
#include <span>

namespace sightline {

class LodWalker
{
public:
    // `tolerance`: the largest extent of a block that a cut may split by estimate (0: none).
    LodWalker(const Track& track, IndexRange lane, const LaneLod& lod, Duration tolerance)
        : m_begin(lane.begin)
        , m_size(lane.size())
        , m_start(track.events.start.data() + lane.begin)
        , m_end(track.events.end.data() + lane.begin)
        , m_top(int(lod.m_levelStart.empty() ? 0 : lod.m_levelStart.size() - 1))
        , m_tolerance(tolerance)
    {
        for (int level = 1; level <= std::min(m_top, kMaxLevels); ++level)
            m_levels[level - 1] = {lod.m_blocks.data() + lod.m_levelStart[size_t(level - 1)],
                lod.m_levelStart[size_t(level)] - lod.m_levelStart[size_t(level - 1)]};
    }

    // Places the cut at `t` afresh, searching the pyramid top down.
    void seek(Timestamp t);
    // Moves the cut on from where it is to `t` and describes the events in between, a column
    // of 1 / `inverseWidth` nanoseconds.
    LodColumn advance(Timestamp t, double inverseWidth);
    // True when the cut can move on to `t` with nothing in between: nothing left of the cut
    // reaches across it and the next event starts at `t` or later.
    bool idleUntil(Timestamp t) const { return settled() && (m_next >= m_size || m_start[m_next] >= t); }
    bool finished() const { return m_next >= m_size && settled(); }
    // True when the event reaching across the cut reaches beyond `t` too; passCovered() then
    // moves the cut on by `width` nanoseconds, to `t`, over a column that event fills.
    bool coveredBeyond(Timestamp t) const { return m_straddler != kNone && m_lastEnd > t; }
    LodColumn passCovered(Duration width)
    {
        m_busyBefore += width;
        return {1.0f, 1, m_begin + m_straddler};
    }

private:
    using Block = LaneLod::Block;

    // True when all the busy time of the events left of the cut lies before it: no event
    // reaches across the cut, nor a block estimated there.
    bool settled() const { return m_straddler == kNone && m_busyBefore == m_consumed; }
    static constexpr uint32_t kNone = LodColumn::kNoEvent;

    // Walk level k >= 1 groups kBlock * kFanOut^(k - 1) events per block.
    static int shift(int level)
    {
        return level == 0 ? 0 : LaneLod::kBlockShift + LaneLod::kFanOutShift * (level - 1);
    }
    std::span<const Block> blocks(int level) const { return m_levels[size_t(level - 1)]; }
    uint32_t unitCount(int level) const { return level == 0 ? m_size : uint32_t(blocks(level).size()); }
    Timestamp firstStart(int level, uint32_t unit) const
    {
        return level == 0 ? m_start[unit] : blocks(level)[unit].firstStart;
    }
    Timestamp lastEnd(int level, uint32_t unit) const
    {
        return level == 0 ? effectiveEnd(m_start[unit], m_end[unit]) : blocks(level)[unit].lastEnd;
    }
    Duration longestOf(const Block& b) const
    {
        return b.longest != LaneLod::kLongDuration
            ? b.longest
            : m_end[b.longestIndex - m_begin] - m_start[b.longestIndex - m_begin];
    }
    // The last of units [first, last) starting before `t` (kNone when none does).
    uint32_t lastStartingBefore(int level, uint32_t first, uint32_t last, Timestamp t) const;
    // The largest block starting at event `next` that lies wholly before `t` (0: none does).
    int levelFor(uint32_t next, Timestamp t) const;
    // Where advance() starts its walk: levelFor(), or the block above it when that starts at
    // `next` too. That block reaches across `t`, and may be estimated or cut at its longest
    // event instead of being walked event by event.
    int startLevel(uint32_t next, Timestamp t) const;
    // Of a block reaching across `t`, an estimate of the busy time before `t`, between what
    // its extent allows: off by at most the extent.
    static Duration busyBefore(const Block& b, Timestamp t);

    const uint32_t m_begin;
    const uint32_t m_size;
    const Timestamp* const m_start;
    const Timestamp* const m_end;
    // 2^32 events need at most 11 levels of 16 * 8^k.
    static constexpr int kMaxLevels = 11;
    const int m_top;
    std::span<const Block> m_levels[kMaxLevels];
    const Duration m_tolerance;

    // The cut. Busy times count from an arbitrary origin; only differences matter.
    uint32_t m_next = 0; // lane-relative index of the first event right of the cut
    Duration m_consumed = 0; // whole durations of the events left of the cut
    Duration m_busyBefore = 0; // busy time before the cut's time
    Timestamp m_lastEnd = std::numeric_limits<Timestamp>::min(); // effective end of the last event left of it
    uint32_t m_straddler = kNone; // the event reaching across the cut's time, if any
    Duration m_straddlerDuration = 0;
    // A block cut at its longest event leaves the rest of its events, [m_next, m_tailEnd), as
    // a tail that a later column takes whole if it ends before the column does.
    uint32_t m_tailEnd = 0;
    Duration m_tailBusy = 0;
    Timestamp m_tailLastEnd = 0;
};

uint32_t LodWalker::lastStartingBefore(int level, uint32_t first, uint32_t last, Timestamp t) const
{
    uint32_t found = kNone;
    for (uint32_t u = first; u < last && firstStart(level, u) < t; ++u)
        found = u;
    return found;
}

int LodWalker::levelFor(uint32_t next, Timestamp t) const
{
    int level = 0;
    while (level < m_top && next < m_size && next >> shift(level + 1) << shift(level + 1) == next
        && blocks(level + 1)[next >> shift(level + 1)].lastEnd <= t)
        ++level;
    return level;
}

int LodWalker::startLevel(uint32_t next, Timestamp t) const
{
    const int level = levelFor(next, t);
    const bool aligned
        = level < m_top && next < m_size && next >> shift(level + 1) << shift(level + 1) == next;
    return aligned ? level + 1 : level;
}

Duration LodWalker::busyBefore(const Block& b, Timestamp t)
{
    // At most t - firstStart of it lies before t and at most lastEnd - t after t.
    const Duration low = std::max<Duration>(0, b.busy - (b.lastEnd - t)),
                   high = std::min<Duration>(b.busy, t - b.firstStart);
    const Duration share
        = Duration(double(b.busy) * double(t - b.firstStart) / double(b.lastEnd - b.firstStart) + 0.5);
    return std::clamp(share, low, high);
}

void LodWalker::seek(Timestamp t)
{
    m_next = 0;
    m_consumed = m_busyBefore = 0;
    m_lastEnd = std::numeric_limits<Timestamp>::min();
    m_straddler = kNone;
    m_tailEnd = 0;
    if (m_size == 0) return;
    int level = m_top;
    uint32_t unit = lastStartingBefore(level, 0, unitCount(level), t);
    if (unit == kNone) return; // every event starts at or after t
    for (;;) {
        const Timestamp s = firstStart(level, unit), e = lastEnd(level, unit);
        if (e <= t) { // the unit lies before t and the next one starts at or after it
            m_next = std::min(m_size, (unit + 1) << shift(level));
            m_lastEnd = e;
            return;
        }
        if (level == 0) { // the event reaches across t
            m_next = unit + 1;
            m_consumed = m_straddlerDuration = m_end[unit] - s;
            m_busyBefore = t - s;
            m_lastEnd = e;
            m_straddler = unit;
            return;
        }
        const Block& b = blocks(level)[unit];
        if (e - s <= m_tolerance) { // a block of short events: to the side of its midpoint
            m_busyBefore = busyBefore(b, t);
            m_next = unit << shift(level);
            if (t - s > e - t) {
                m_consumed = b.busy;
                m_lastEnd = e;
                m_next = std::min(m_size, (unit + 1) << shift(level));
            }
            return;
        }
        const int fan = shift(level) - shift(level - 1);
        --level;
        unit = lastStartingBefore(level, unit << fan, std::min(unitCount(level), (unit + 1) << fan), t);
    }
}

LodColumn LodWalker::advance(Timestamp t, double inverseWidth)
{
    // The walk works on copies of the cut, written back at the end.
    uint32_t next = m_next, count = 0, longestIndex = kNone;
    Duration consumed = m_consumed, longest = -1;
    Timestamp lastEnd = m_lastEnd;
    auto consider = [&](Duration duration, uint32_t index) {
        if (duration > longest) longest = duration, longestIndex = index;
    };
    const Duration busyBeforeColumn = m_busyBefore;
    if (m_straddler != kNone) {
        count = 1;
        consider(m_straddlerDuration, m_begin + m_straddler);
    }
    if (m_tailEnd != 0) {
        if (m_tailLastEnd <= t) { // none of its events is longer than the straddler, which is in this column
            consumed += m_tailBusy;
            count += m_tailEnd - next;
            next = m_tailEnd;
            lastEnd = m_tailLastEnd;
            m_tailEnd = 0;
        } else if (m_start[next] < t) {
            m_tailEnd = 0; // it reaches across t: walk it event by event
        }
    }

    // Take events, or whole blocks once aligned on one, while they lie before t; climb a level
    // when aligned on its next block, step down into a block that reaches across t.
    int level = startLevel(next, t);
    bool exact = true;
    while (next < m_size) {
        if (level == 0) { // events one by one up to the end of their block
            const uint32_t first = next, blockEnd = std::min(m_size, (next | (LaneLod::kBlock - 1)) + 1);
            for (; next < blockEnd && m_start[next] < t; ++next) {
                const Duration d = m_end[next] - m_start[next];
                consumed += d;
                consider(d, m_begin + next);
            }
            if (next > first) {
                count += next - first;
                lastEnd = effectiveEnd(m_start[next - 1], m_end[next - 1]);
            }
            if (next < blockEnd) break; // the next event starts at t or later
            level = 1;
            continue;
        }
        const uint32_t unit = next >> shift(level);
        const Block& b = blocks(level)[unit];
        const uint32_t after = std::min(m_size, (unit + 1) << shift(level));
        if (b.lastEnd <= t) {
            consumed += b.busy;
            consider(longestOf(b), b.longestIndex);
            lastEnd = b.lastEnd;
            count += after - next;
            next = after;
            if (level < m_top && (unit + 1) % LaneLod::kFanOut == 0) ++level;
            continue;
        }
        if (b.firstStart >= t) break;
        if (b.lastEnd - b.firstStart <= m_tolerance) {
            // A block of short events reaching across t: its busy time split by estimate, its
            // events whole to the side of its midpoint.
            m_busyBefore = consumed + busyBefore(b, t);
            if (t - b.firstStart > b.lastEnd - t) {
                consumed += b.busy;
                consider(longestOf(b), b.longestIndex);
                lastEnd = b.lastEnd;
                count += after - next;
                next = after;
            }
            m_straddler = kNone;
            exact = false;
            break;
        }
        // Most often the event reaching across t is the block's longest (a long call among short
        // ones). Then the block's events before it lie left of t and the ones after it right of
        // t: the cut is placed without reading them.
        const Duration d = longestOf(b);
        if (const uint32_t i = b.longestIndex - m_begin; d >= (b.lastEnd - b.firstStart) / 4
            && b.busyBeforeLongest != LaneLod::kLongDuration && m_start[i] < t && m_start[i] + d > t) {
            consumed += b.busyBeforeLongest + d;
            consider(d, b.longestIndex);
            lastEnd = m_start[i] + d;
            count += i + 1 - next;
            next = i + 1;
            if (after > next)
                m_tailEnd = after, m_tailBusy = b.busy - b.busyBeforeLongest - d, m_tailLastEnd = b.lastEnd;
            break;
        }
        --level;
    }
    if (exact) {
        const bool across = lastEnd > t;
        m_busyBefore = across ? consumed - (lastEnd - t) : consumed;
        m_straddler = across ? next - 1 : kNone;
        if (across)
            m_straddlerDuration = m_end[next - 1] - m_start[next - 1];
        else
            m_tailEnd = 0; // a tail is taken whole only beside the event that left it
    }
    m_next = next;
    m_consumed = consumed;
    m_lastEnd = lastEnd;

    LodColumn column;
    column.count = count;
    column.longest = longestIndex;
    column.busy = float(std::clamp(double(m_busyBefore - busyBeforeColumn) * inverseWidth, 0.0, 1.0));
    return column;
}

Duration LaneLod::tolerance(TimeRange window, size_t columns)
{
    const uint64_t span = uint64_t(window.end) - uint64_t(window.start);
    return window.empty() || columns == 0 || span < columns ? 0 : Duration(span / columns);
}

void LaneLod::query(const Track& track, IndexRange lane, TimeRange window, std::span<LodColumn> out) const
{
    std::fill(out.begin(), out.end(), LodColumn {});
    if (lane.empty() || out.empty() || window.empty()) return;
    const uint64_t columns = out.size();
    const uint64_t span = uint64_t(window.end) - uint64_t(window.start);
    if (span < columns) {
        // Columns narrower than a nanosecond overlap one another: place each on its own.
        __extension__ typedef __int128 WideInt;
        auto boundary = [&](uint64_t c) {
            return window.start + Timestamp(WideInt(span) * WideInt(c) / WideInt(columns));
        };
        LodWalker walker(track, lane, *this, 0);
        for (uint64_t c = 0; c < columns; ++c) {
            const Timestamp c0 = boundary(c), c1 = std::max(boundary(c + 1), c0 + 1);
            walker.seek(c0);
            out[c] = walker.advance(c1, 1.0 / double(c1 - c0));
        }
        return;
    }
    LodWalker walker(track, lane, *this, tolerance(window, out.size()));
    walker.seek(window.start);
    // Column c ends at window.start + floor(span * (c + 1) / columns), stepped without division.
    const uint64_t step = span / columns, remainder = span % columns;
    const double inverseWidth[2] = {1.0 / double(step), 1.0 / double(step + 1)};
    uint64_t carried = 0;
    Timestamp c1 = window.start;
    for (size_t c = 0; c < out.size() && !walker.finished(); ++c) {
        carried += remainder;
        const bool wider = carried >= columns;
        if (wider) carried -= columns;
        c1 += Timestamp(step) + wider;
        if (walker.idleUntil(c1)) continue;
        out[c] = walker.coveredBeyond(c1) ? walker.passCovered(Duration(step) + wider)
                                          : walker.advance(c1, inverseWidth[wider]);
    }
}

} // namespace sightline
