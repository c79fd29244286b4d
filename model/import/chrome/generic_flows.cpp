#include "model/import/chrome/generic_flows.h"

#include "model/trace/trace.h"

#include <algorithm>
#include <limits>
#include <map>
#include <tuple>

namespace sightline {
namespace {

// The rows of a thread: its CUDA API, NVTX (one per domain) and OS runtime tracks.
bool isThreadTrack(const TrackKey& key)
{
    return !isGpuKind(key.kind) && key.context.value == 0 && key.stream.value == 0;
}

// Finds the slice a flow point binds to among the tracks of its thread, through the Trace's
// lane queries: two binary searches per lane.
class SliceFinder
{
public:
    explicit SliceFinder(const Trace& trace)
        : m_trace(trace)
    {
        for (uint32_t t = 0; t < trace.tracks.size(); ++t)
            if (isThreadTrack(trace.tracks[t].key))
                m_threads[{trace.tracks[t].key.pid, trace.tracks[t].key.tid}].push_back(TrackId(t));
    }

    // The innermost slice open at `ts`: the latest to start, then the first to end, then the
    // deepest.
    std::optional<EventRef> enclosing(Pid pid, Tid tid, Timestamp ts) const
    {
        std::optional<Candidate> best;
        forEachLane(pid, tid, [&](TrackId track, uint32_t lane) {
            const IndexRange open = m_trace.windowEvents(track, lane, {ts, ts + 1});
            for (uint32_t i = open.begin; i < open.end; ++i) {
                const Candidate c = candidate(track, lane, i);
                if (!best
                    || std::tuple(c.start, -c.end, c.lane) > std::tuple(best->start, -best->end, best->lane))
                    best = c;
            }
        });
        return best ? std::optional(best->ref) : std::nullopt;
    }

    // The first slice to start at or after `ts`: the earliest, then the outermost.
    std::optional<EventRef> nextStarting(Pid pid, Tid tid, Timestamp ts) const
    {
        std::optional<Candidate> best;
        forEachLane(pid, tid, [&](TrackId track, uint32_t lane) {
            const IndexRange later = m_trace.eventsStartingIn(
                track, lane, TimeRange {ts, std::numeric_limits<Timestamp>::max()});
            if (later.empty()) return;
            const Candidate c = candidate(track, lane, later.begin);
            if (!best
                || std::tuple(c.start, -c.end, c.lane) < std::tuple(best->start, -best->end, best->lane))
                best = c;
        });
        return best ? std::optional(best->ref) : std::nullopt;
    }

private:
    struct Candidate
    {
        EventRef ref;
        Timestamp start = 0, end = 0;
        uint32_t lane = 0;
    };

    Candidate candidate(TrackId track, uint32_t lane, uint32_t index) const
    {
        const EventColumns& events = m_trace.track(track).events;
        return {{track, index}, events.start[index], events.end[index], lane};
    }

    template <class Visit> void forEachLane(Pid pid, Tid tid, Visit visit) const
    {
        const auto found = m_threads.find({pid, tid});
        if (found == m_threads.end()) return;
        for (const TrackId track : found->second)
            for (uint32_t lane = 0; lane < m_trace.track(track).laneCount(); ++lane)
                visit(track, lane);
    }

    const Trace& m_trace;
    std::map<std::pair<Pid, Tid>, std::vector<TrackId>> m_threads;
};

} // namespace

void GenericFlows::add(const KinetoEvent& e, uint32_t row, uint32_t category, uint32_t name)
{
    Point p;
    p.ts = e.ts;
    p.id = e.id;
    p.row = row;
    p.category = category;
    p.name = name;
    p.order = uint32_t(m_points.size());
    p.phase = e.phase;
    p.bindsEnclosing = e.phase != 'f' || e.bindingPoint == "e";
    m_points.push_back(p);
}

void GenericFlows::place(const ThreadOfRow& threadOf, Timestamp base)
{
    for (Point& p : m_points) {
        const std::optional<std::pair<Pid, Tid>> thread = threadOf(p.row);
        p.placed = thread.has_value();
        if (thread) std::tie(p.pid, p.tid) = *thread;
        p.ts -= base;
    }
}

void GenericFlows::bind(Trace& trace, const std::vector<std::string>& texts, size_t closingDiagnostics) const
{
    if (m_points.empty() && !m_unplaced) return;
    // Each flow's points in time order (file order among equal times).
    std::vector<uint32_t> order(m_points.size());
    for (uint32_t i = 0; i < order.size(); ++i)
        order[i] = i;
    std::sort(order.begin(), order.end(), [&](uint32_t a, uint32_t b) {
        const Point &x = m_points[a], &y = m_points[b];
        return std::tuple(x.category, x.id, x.ts, x.order) < std::tuple(y.category, y.id, y.ts, y.order);
    });

    const SliceFinder finder(trace);
    std::map<uint32_t, StringId> names;
    std::vector<FlowLink> links;
    size_t unbound = 0, withoutStart = 0;
    bool open = false;
    std::optional<EventRef> previous;
    for (size_t k = 0; k < order.size(); ++k) {
        const Point& p = m_points[order[k]];
        if (k > 0) {
            const Point& before = m_points[order[k - 1]];
            if (before.category != p.category || before.id != p.id) open = false;
        }
        if (p.phase != 's' && !open) {
            ++withoutStart;
            continue;
        }
        std::optional<EventRef> at;
        if (p.placed)
            at = p.bindsEnclosing ? finder.enclosing(p.pid, p.tid, p.ts)
                                  : finder.nextStarting(p.pid, p.tid, p.ts);
        if (!at) ++unbound;
        if (previous && at && *previous != *at && p.phase != 's') {
            auto [name, added] = names.try_emplace(p.name);
            if (added) name->second = trace.strings.intern(texts[p.name]);
            links.push_back({*previous, *at, name->second});
        }
        open = p.phase != 'f';
        previous = at;
    }
    std::sort(links.begin(), links.end());
    links.erase(std::unique(links.begin(), links.end()), links.end());
    const size_t linkCount = links.size();
    trace.setFlows(std::move(links));

    std::vector<Diagnostic> said;
    if (linkCount)
        said.push_back({Severity::Info, "import",
            "Linked " + std::to_string(linkCount)
                + " flow steps (\"s\", \"t\", \"f\" events) from slice to slice, as Perfetto draws them."});
    if (unbound)
        said.push_back({Severity::Warning, "import",
            std::to_string(unbound) + " flow points bound to no slice were skipped."});
    if (withoutStart)
        said.push_back({Severity::Warning, "import",
            std::to_string(withoutStart)
                + " flow steps (\"t\", \"f\") without an earlier start (\"s\") were skipped."});
    if (m_unplaced)
        said.push_back({Severity::Warning, "import",
            std::to_string(m_unplaced)
                + " flow events without an id, a timestamp or a process were skipped (\"id2\" and "
                  "\"bind_id\" "
                  "flows are not read)."});
    const size_t at = trace.diagnostics.size() - std::min(closingDiagnostics, trace.diagnostics.size());
    trace.diagnostics.insert(trace.diagnostics.begin() + ptrdiff_t(at), said.begin(), said.end());
}

} // namespace sightline
