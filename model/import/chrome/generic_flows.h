// Flow events ("s", "t", "f") of Chrome traces, other than the launch flows PyTorch's profiler
// writes (category "ac2g": those correlate GPU work, kineto_collector.h), bound as Perfetto
// binds them and stored as links between events (model/core/flows.h):
//  - a flow is keyed by (category, id) and runs s -> t -> ... -> t -> f, one link per step;
//  - "s" and "t" bind to the innermost slice enclosing their time on their thread, "f" too
//    when it says "bp":"e", else to the next slice that starts at or after its time there;
//  - a point that binds to no slice, or a step without a start, is skipped and counted.
// Points are held with their row until the file is read, placed on model threads (pid, tid,
// time from t = 0) once rows have ids, and bound once the Trace is built (event indexes are
// final only then), through the Trace's query face. "id2" / "bind_id" flows carry no "id":
// they are counted as skipped. Memory: about 48 bytes per point.
#pragma once

#include "model/core/ids.h"
#include "model/core/time.h"
#include "model/import/chrome/kineto_event.h"

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace sightline {

struct Trace;

class GenericFlows
{
public:
    using ThreadOfRow = std::function<std::optional<std::pair<Pid, Tid>>(uint32_t row)>;

    // Holds an "s", "t" or "f" event of row `row`; category and name are text ids of the caller.
    void add(const KinetoEvent& e, uint32_t row, uint32_t category, uint32_t name);
    // Counts a flow event that has no id, time or process (skipped).
    void skipUnplaced() { ++m_unplaced; }

    // Gives each held point its thread (none: it will bind to no slice) and its time less `base`.
    void place(const ThreadOfRow& threadOf, Timestamp base);
    // Binds the placed points to the trace's slices, sets the trace's flows and says how many
    // links it made and what it skipped, in diagnostics placed before the trace's last
    // `closingDiagnostics` (a cut file's warning stays last). `texts` resolves category and name ids.
    void bind(Trace& trace, const std::vector<std::string>& texts, size_t closingDiagnostics = 0) const;

private:
    struct Point
    {
        Timestamp ts = 0;
        uint64_t id = 0;
        uint32_t row = 0, category = 0, name = 0;
        uint32_t order = 0; // file order, for points of one flow at one time
        Pid pid;
        Tid tid;
        bool placed = false;
        bool bindsEnclosing = true; // "s", "t", and "f" with "bp":"e"
        char phase = 's';
    };

    std::vector<Point> m_points;
    size_t m_unplaced = 0;
};

} // namespace sightline
