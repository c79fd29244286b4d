#include "model/import/chrome/generic_trace_events.h"

#include "model/import/json/json_number.h"
#include "model/import/track_cache.h"

#include <algorithm>
#include <optional>
#include <set>

namespace sightline {

uint32_t GenericTraceEvents::text(std::string_view value)
{
    auto [it, inserted] = m_textIds.try_emplace(std::string(value), uint32_t(m_texts.size()));
    if (inserted) m_texts.emplace_back(value);
    return it->second;
}

bool GenericTraceEvents::rowOf(bool hasNumber, int64_t number, std::string_view textValue, RowRef& out)
{
    if (hasNumber) {
        out = {false, number};
        return true;
    }
    if (textValue.data() == nullptr) return false; // absent (an empty string is a name too)
    out = {true, int64_t(text(textValue))};
    return true;
}

uint32_t GenericTraceEvents::rowIndex(RowRef pid, RowRef tid)
{
    auto [it, inserted] = m_rowIds.try_emplace({pid, tid}, uint32_t(m_rows.size()));
    if (inserted) m_rows.emplace_back(pid, tid);
    return it->second;
}

bool GenericTraceEvents::add(const KinetoEvent& e)
{
    char phase = 0;
    switch (e.phase) {
    case 'X':
    case 'B':
    case 'E':
        phase = e.phase;
        break;
    case 'i':
    case 'I':
    case 'n':
        phase = 'i';
        break;
    case 'C':
        return addCounter(e);
    case 's':
    case 't':
    case 'f':
        return addFlowPoint(e);
    default:
        return false;
    }
    RowRef pid, tid;
    if (!e.hasTs || !rowOf(e.hasPid, e.pid, e.pidText, pid)) {
        ++m_unplaced;
        return true;
    }
    if (!rowOf(e.hasTid, e.tid, e.tidText, tid)) tid = pid; // a process-wide event: its main row
    Held held;
    held.ts = e.ts;
    held.end = phase == 'X' ? e.ts + std::max<int64_t>(0, e.dur) : e.ts;
    held.row = rowIndex(pid, tid);
    held.name = text(e.name);
    held.category = text(e.category);
    held.phase = phase;
    m_events.push_back(held);
    return true;
}

// A "C" event: samples of a counter of its process (a process-wide row: any tid is ignored).
bool GenericTraceEvents::addCounter(const KinetoEvent& e)
{
    RowRef pid;
    if (!e.hasTs || !rowOf(e.hasPid, e.pid, e.pidText, pid)) {
        ++m_unplaced;
        return true;
    }
    const auto known = m_counterProcessIds.find(pid);
    const uint32_t process
        = known != m_counterProcessIds.end() ? known->second : uint32_t(m_counterProcesses.size());
    if (!m_counters.add(process, e)) {
        ++m_counterless;
        return true;
    }
    if (known == m_counterProcessIds.end()) {
        m_counterProcessIds.emplace(pid, process);
        m_counterProcesses.push_back(pid);
    }
    return true;
}

bool GenericTraceEvents::addFlowPoint(const KinetoEvent& e)
{
    RowRef pid, tid;
    if (!e.hasTs || !e.hasId || !rowOf(e.hasPid, e.pid, e.pidText, pid)) {
        m_flows.skipUnplaced();
        return true;
    }
    if (!rowOf(e.hasTid, e.tid, e.tidText, tid)) tid = pid;
    m_flows.add(e, rowIndex(pid, tid), text(e.category), text(e.name));
    return true;
}

void GenericTraceEvents::placeFlowsOnNumericRows(Timestamp base)
{
    m_flows.place(
        [&](uint32_t row) -> std::optional<std::pair<Pid, Tid>> {
            const auto& [pid, tid] = m_rows[row];
            if (pid.isText || tid.isText) return std::nullopt;
            return std::pair(Pid(uint32_t(pid.value)), Tid(uint32_t(tid.value)));
        },
        base);
}

void GenericTraceEvents::noteMetadata(const KinetoEvent& e)
{
    RowRef pid, tid;
    if (!e.has(TextArg::Name) || !rowOf(e.hasPid, e.pid, e.pidText, pid)) return;
    if (e.name == "process_name")
        m_processNames[pid] = std::string(e.get(TextArg::Name));
    else if (e.name == "thread_name" && rowOf(e.hasTid, e.tid, e.tidText, tid))
        m_threadNames[{pid, tid}] = std::string(e.get(TextArg::Name));
}

bool GenericTraceEvents::span(Timestamp& first, Timestamp& last) const
{
    if (!m_counters.span(first, last)) {
        if (m_events.empty()) return false;
        first = m_events.front().ts;
        last = m_events.front().end;
    }
    for (const Held& h : m_events) {
        first = std::min(first, h.ts);
        last = std::max(last, h.end);
    }
    return true;
}

// Pairs each thread's "B" and "E" events in time order (file order among equal times), an "E"
// closing the innermost open "B"; the pairs join `ranges` as whole ranges.
void GenericTraceEvents::matchBeginEnd(std::vector<Held>& ranges, Timestamp traceEnd)
{
    std::vector<uint32_t> marks;
    for (uint32_t i = 0; i < m_events.size(); ++i)
        if (m_events[i].phase == 'B' || m_events[i].phase == 'E') marks.push_back(i);
    std::stable_sort(marks.begin(), marks.end(), [&](uint32_t a, uint32_t b) {
        const Held &x = m_events[a], &y = m_events[b];
        return x.row != y.row ? x.row < y.row : x.ts < y.ts;
    });
    std::vector<Held> open;
    auto closeAll = [&] {
        for (Held& begin : open) {
            begin.end = std::max(begin.ts, traceEnd);
            begin.phase = 'X';
            ranges.push_back(begin);
            ++m_unendedBegins;
        }
        open.clear();
    };
    for (size_t k = 0; k < marks.size(); ++k) {
        const Held& h = m_events[marks[k]];
        if (k > 0 && m_events[marks[k - 1]].row != h.row) closeAll();
        if (h.phase == 'B') {
            open.push_back(h);
            continue;
        }
        if (open.empty()) {
            ++m_unmatchedEnds;
            continue;
        }
        Held range = open.back();
        open.pop_back();
        range.end = std::max(range.ts, h.ts);
        range.phase = 'X';
        ranges.push_back(range);
    }
    closeAll();
}

// Numeric rows keep their number; each string row takes the smallest number from 1 up that no
// numeric row of its kind uses (tids are one namespace across processes, as in the model).
void GenericTraceEvents::assignIds(
    std::map<RowRef, uint32_t>& pids, std::map<std::pair<RowRef, RowRef>, uint32_t>& tids) const
{
    std::set<uint32_t> usedPids, usedTids;
    for (const auto& [pid, tid] : m_rows) {
        if (!pid.isText) usedPids.insert(uint32_t(pid.value));
        if (!tid.isText) usedTids.insert(uint32_t(tid.value));
    }
    for (const RowRef& pid : m_counterProcesses)
        if (!pid.isText) usedPids.insert(uint32_t(pid.value));
    auto nextFree = [](std::set<uint32_t>& used, uint32_t& next) {
        while (used.count(next))
            ++next;
        used.insert(next);
        return next;
    };
    uint32_t nextPid = 1, nextTid = 1;
    auto assignPid = [&](RowRef pid) {
        if (!pids.count(pid)) pids[pid] = pid.isText ? nextFree(usedPids, nextPid) : uint32_t(pid.value);
    };
    for (const auto& [pid, tid] : m_rows) {
        assignPid(pid);
        if (!tids.count({pid, tid}))
            tids[{pid, tid}] = tid.isText ? nextFree(usedTids, nextTid) : uint32_t(tid.value);
    }
    for (const RowRef& pid : m_counterProcesses)
        assignPid(pid);
}

// Names the threads and processes the events and counters used, after the metadata or, for
// string rows, after their text.
void GenericTraceEvents::nameRows(TraceBuilder& builder, const std::map<RowRef, uint32_t>& pids,
    const std::map<std::pair<RowRef, RowRef>, uint32_t>& tids, const std::vector<bool>& usedRows) const
{
    std::set<RowRef> namedProcesses;
    auto nameProcess = [&](RowRef pidRef) {
        if (!namedProcesses.insert(pidRef).second) return;
        const Pid pid(pids.at(pidRef));
        const auto processName = m_processNames.find(pidRef);
        if (processName != m_processNames.end())
            builder.addProcess({pid, processName->second, {}});
        else if (pidRef.isText)
            builder.addProcess({pid, m_texts[size_t(pidRef.value)], {}});
    };
    for (uint32_t r = 0; r < m_rows.size(); ++r) {
        if (!usedRows[r]) continue;
        const auto& [pidRef, tidRef] = m_rows[r];
        const Pid pid(pids.at(pidRef));
        const Tid tid(tids.at({pidRef, tidRef}));
        const auto threadName = m_threadNames.find({pidRef, tidRef});
        if (threadName != m_threadNames.end())
            builder.addThread({pid, tid, threadName->second});
        else if (tidRef.isText)
            builder.addThread({pid, tid, m_texts[size_t(tidRef.value)]});
        nameProcess(pidRef);
    }
    for (const RowRef& pidRef : m_counterProcesses)
        nameProcess(pidRef);
}

void GenericTraceEvents::emit(TraceBuilder& builder, Timestamp base)
{
    Timestamp first = 0, last = 0;
    if (!span(first, last)) return;
    std::vector<Held> ranges;
    ranges.reserve(m_events.size());
    for (const Held& h : m_events)
        if (h.phase == 'X' || h.phase == 'i') ranges.push_back(h);
    matchBeginEnd(ranges, last);
    std::vector<Held>().swap(m_events);

    std::map<RowRef, uint32_t> pids;
    std::map<std::pair<RowRef, RowRef>, uint32_t> tids;
    assignIds(pids, tids);
    m_flows.place(
        [&](uint32_t row) {
            return std::optional(std::pair(Pid(pids.at(m_rows[row].first)), Tid(tids.at(m_rows[row]))));
        },
        base);
    std::vector<std::optional<DomainId>> domains(m_texts.size());
    std::vector<std::optional<StringId>> names(m_texts.size());
    std::vector<bool> usedRows(m_rows.size(), false);
    TrackCache tracks(builder);
    for (const Held& h : ranges) {
        const auto& [pidRef, tidRef] = m_rows[h.row];
        const Pid pid(pids.at(pidRef));
        const Tid tid(tids.at({pidRef, tidRef}));
        if (!domains[h.category])
            domains[h.category]
                = m_texts[h.category].empty() ? DomainId() : builder.addDomain(m_texts[h.category]);
        if (!names[h.name]) names[h.name] = builder.intern(m_texts[h.name]);
        NvtxAttributes attributes;
        attributes.style = h.phase == 'i' ? NvtxStyle::Mark : NvtxStyle::PushPop;
        attributes.domain = *domains[h.category];
        attributes.endThread = tid;
        builder.add(tracks.host(TrackKind::Nvtx, pid, tid, attributes.domain),
            NvtxEvent {h.ts - base, h.end - base, *names[h.name], attributes});
        usedRows[h.row] = true;
    }

    std::vector<Pid> counterPids;
    for (const RowRef& pid : m_counterProcesses)
        counterPids.push_back(Pid(pids.at(pid)));
    const size_t counterSeries = m_counters.emit(builder, counterPids, base, last);
    nameRows(builder, pids, tids, usedRows);

    builder.addDiagnostic({Severity::Info, "import",
        "Read as a generic Chrome trace (it has no PyTorch profiler markers): "
            + std::to_string(ranges.size()) + " ranges and marks, each category an NVTX domain"
            + (counterSeries ? "; " + std::to_string(counterSeries) + " counter series of their processes."
                             : ".")});
    const size_t problems = m_unplaced + m_counterless + m_unmatchedEnds + m_unendedBegins;
    if (!problems) return;
    std::string parts;
    auto part = [&](size_t count, const char* what) {
        if (count) parts += (parts.empty() ? "" : ", ") + std::to_string(count) + " " + what;
    };
    part(m_unplaced, "without a timestamp or a process (skipped)");
    part(m_counterless, "\"C\" without a number in its args (skipped)");
    part(m_unmatchedEnds, "\"E\" without a \"B\" (ignored)");
    part(m_unendedBegins, "\"B\" without an \"E\" (closed at the end of the trace)");
    builder.addDiagnostic({Severity::Warning, "import",
        std::to_string(problems) + " events could not be placed as written: " + parts + "."});
}

} // namespace sightline
