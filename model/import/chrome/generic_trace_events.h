// Chrome trace events from producers other than PyTorch's profiler (Perfetto/Catapult-style
// tools, nsys2json, JAX/XLA, custom scripts), held until the whole file is read: only then is
// it known whether the file is a Kineto trace, where these events stay skipped as before
// (kineto_collector.h says the rule), or a generic one, where they become Sightline events.
//
// Mapping, as Perfetto shows such files: "X" and matched "B"/"E" pairs (per thread, nested,
// in time order) -> NVTX push/pop ranges on the thread, one NVTX domain per category; "i",
// "I" and "n" -> NVTX marks (end == start); "C" -> counter series of the process
// (generic_counters.h). Rows may be numbers or strings: a string pid or tid
// gets a numeric id of its own (one not used by a numeric row of the file), and its text is
// the row's name unless "process_name" / "thread_name" metadata names it. Flow events ("s",
// "t", "f") are held too and bound to slices once the Trace is built (generic_flows.h), in a
// PyTorch trace as well (its own "ac2g" launch flows never come here). Memory: about 24
// bytes per event plus each distinct name once.
#pragma once

#include "model/construct/trace_builder.h"
#include "model/import/chrome/generic_counters.h"
#include "model/import/chrome/generic_flows.h"
#include "model/import/chrome/kineto_event.h"

#include <map>
#include <string>
#include <unordered_map>
#include <vector>

namespace sightline {

class GenericTraceEvents
{
public:
    // Takes an "X", "i", "I", "n", "B", "E", "C", "s", "t" or "f" event; false for any other
    // (nothing is kept).
    bool add(const KinetoEvent& e);
    // Takes "process_name" / "thread_name" metadata, whatever its rows are written as.
    void noteMetadata(const KinetoEvent& e);

    bool empty() const { return m_events.empty() && m_counters.empty(); }
    size_t size() const { return m_events.size() + m_counters.size(); }
    // The earliest and latest time of the events and counter samples (raw file nanoseconds);
    // false when none.
    bool span(Timestamp& first, Timestamp& last) const;

    // Adds every event to the builder, times moved by -base, names the rows it used, and
    // reports what could not be placed in one diagnostic.
    void emit(TraceBuilder& builder, Timestamp base);
    // In a PyTorch trace, where emit() is not called: places the flow points of numeric rows on
    // the threads of those numbers, times moved by -base.
    void placeFlowsOnNumericRows(Timestamp base);
    // Binds the flow points to the built trace's slices (after emit or placeFlowsOnNumericRows);
    // what it says goes before the trace's last `closingDiagnostics`.
    void bindFlows(Trace& trace, size_t closingDiagnostics) const
    {
        m_flows.bind(trace, m_texts, closingDiagnostics);
    }

private:
    // A pid or tid as written: a number, or a string (an index into m_texts).
    struct RowRef
    {
        bool isText = false;
        int64_t value = 0;
        friend auto operator<=>(const RowRef&, const RowRef&) = default;
    };
    struct Held
    {
        Timestamp ts = 0, end = 0;
        uint32_t row = 0; // index into m_rows
        uint32_t name = 0, category = 0; // indices into m_texts
        char phase = 'X'; // 'X' (a whole range), 'i' (a mark), 'B' or 'E'
    };

    uint32_t text(std::string_view value);
    bool rowOf(bool hasNumber, int64_t number, std::string_view textValue, RowRef& out);
    uint32_t rowIndex(RowRef pid, RowRef tid);
    bool addCounter(const KinetoEvent& e);
    bool addFlowPoint(const KinetoEvent& e);
    void assignIds(
        std::map<RowRef, uint32_t>& pids, std::map<std::pair<RowRef, RowRef>, uint32_t>& tids) const;
    void matchBeginEnd(std::vector<Held>& ranges, Timestamp traceEnd);
    void nameRows(TraceBuilder& builder, const std::map<RowRef, uint32_t>& pids,
        const std::map<std::pair<RowRef, RowRef>, uint32_t>& tids, const std::vector<bool>& usedRows) const;

    std::vector<Held> m_events;
    std::vector<std::string> m_texts;
    std::unordered_map<std::string, uint32_t> m_textIds;
    std::vector<std::pair<RowRef, RowRef>> m_rows; // (pid, tid)
    std::map<std::pair<RowRef, RowRef>, uint32_t> m_rowIds;
    std::map<RowRef, std::string> m_processNames;
    std::map<std::pair<RowRef, RowRef>, std::string> m_threadNames;
    GenericCounters m_counters;
    GenericFlows m_flows;
    std::vector<RowRef> m_counterProcesses; // the processes m_counters' indices stand for
    std::map<RowRef, uint32_t> m_counterProcessIds;
    size_t m_unplaced = 0; // no row or no timestamp
    size_t m_counterless = 0; // "C" events whose args hold no number
    size_t m_unmatchedEnds = 0, m_unendedBegins = 0;
};

} // namespace sightline
