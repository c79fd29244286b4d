// The CPU side of an export into Trace::cpu: thread samples (COMPOSITE_EVENTS) with their call
// stacks (SAMPLING_CALLCHAINS), scheduling (SCHED_EVENTS), and the backtraces of CUDA and OS
// runtime calls (CUDA_CALLCHAINS, OSRT_CALLCHAINS). Times are taken as the file has them, like
// every other timestamp of the importer.
//
// Call chains are read in (id, stackDepth) order, one stack per id, leaf first; a frame is the
// `symbol` string, the file name of the `module` string, originalIP and kernelMode. A chain whose
// stackDepths are not 0, 1, 2, ... is damaged: its sample or call keeps no stack (counted).
//
// Scheduling: a thread's rows in time order are transitions, and each begins a state that lasts
// until the thread's next row: sched in -> Running, sched out -> Waiting (nsys gives no reason).
// The first row so begins the first state (before it the state is unknown) and the last row only
// ends the state before it. The SQLite export writes a row per state start and one for the last
// state's end (the opposite of that state), so n rows come back as n rows. A thread's only row,
// and a row at the same nanosecond as its thread's next, begin no state (counted).
//
// CUDA backtraces: nsys writes them on copies of the calls (eventClass 67, which readApiCalls
// skips) that share the call's thread and correlationId; the stack goes to that imported call.
// Rows of an imported class carry their own callchainId (Sightline's exports). nsys 2022.2
// numbers callchainId from 0 but CUDA_CALLCHAINS' ids from 1 (newer versions number both from
// 1 and write 0 for "none"); the offset that resolves more of the file's ids is taken.
#include "model/import/nsys/nsys_importer.h"
#include "model/nsys/global_id.h"
#include "model/nsys/sqlite_schema.h"

#include <algorithm>

namespace sightline::nsys_import {

struct Importer::StackRequest
{
    int64_t callchain = 0;
    Tid tid;
    Timestamp start = 0;
    bool found = false;
};

namespace {

// The median spacing of a thread's consecutive samples: the sampling period when the capture
// does not say it (idle gaps are longer, so they do not move the median while a thread is busy).
Timestamp medianSampleGap(std::vector<CpuSample> samples)
{
    std::sort(samples.begin(), samples.end(), [](const CpuSample& a, const CpuSample& b) {
        return std::tie(a.tid, a.time) < std::tie(b.tid, b.time);
    });
    std::vector<Timestamp> gaps;
    for (size_t i = 1; i < samples.size(); ++i)
        if (samples[i].tid == samples[i - 1].tid && samples[i].time > samples[i - 1].time)
            gaps.push_back(samples[i].time - samples[i - 1].time);
    if (gaps.empty()) return 0;
    std::nth_element(gaps.begin(), gaps.begin() + int64_t(gaps.size() / 2), gaps.end());
    return gaps[gaps.size() / 2];
}

bool importedApiClass(int64_t eventClass)
{
    return eventClass == nsys::kEventClassCudaRuntime || eventClass == nsys::kEventClassCudaDriver;
}

} // namespace

void Importer::readCpuProfile()
{
    readSamples();
    readScheduling();
    readCudaBacktraces();
    readOsRuntimeBacktraces();
    addCpuDiagnostics();
}

StringId Importer::moduleNameOf(int64_t fileId)
{
    auto [it, added] = m_moduleNames.try_emplace(fileId);
    if (added) {
        if (!fileString(fileId)) ++m_missingStrings;
        const std::string_view path = textOf(fileId);
        it->second = m_builder.intern(path.substr(path.rfind('/') + 1)); // npos + 1 is 0
    }
    return it->second;
}

void Importer::forEachCallchain(const char* table, const std::function<void(int64_t, uint32_t)>& visit)
{
    enum { kId, kDepth, kSymbol, kModule, kKernel, kAddress };
    constexpr Column kColumns[] = {{"id", true}, {"stackDepth", true}, {"symbol", true}, {"module", true},
        {"kernelMode", false}, {"originalIP", false}};
    SqliteRows rows = select(table, kColumns, R"( ORDER BY "id", "stackDepth")");
    std::vector<uint32_t> frames; // of the current id, leaf first
    int64_t id = 0;
    bool open = false, damaged = false;
    auto finish = [&] {
        if (!open) return;
        if (damaged) ++m_cpuRows.damagedStacks;
        visit(id, damaged ? kNoCallStack : m_builder.cpuStack(frames));
    };
    while (rows.next()) {
        tick();
        if (rows.isNull(kId)) {
            ++m_cpuRows.skipped[table];
            continue;
        }
        if (!open || rows.integer(kId) != id) {
            finish();
            open = true;
            id = rows.integer(kId);
            frames.clear();
            damaged = false;
        }
        damaged = damaged || rows.isNull(kDepth) || rows.integer(kDepth) != int64_t(frames.size());
        if (damaged) continue;
        StackFrame frame;
        frame.function = optionalStringOf(rows, kSymbol);
        frame.module = rows.isNull(kModule) ? StringId() : moduleNameOf(rows.integer(kModule));
        frame.offset = uint64_t(rows.integerOr(kAddress, 0));
        frame.kernel = rows.integerOr(kKernel, 0) != 0;
        frames.push_back(m_builder.cpuFrame(frame));
    }
    finish();
}

void Importer::readSamples()
{
    const char* table = nsys::table::kCompositeEvents;
    if (!m_db.hasTable(table)) return;
    enum { kId, kStart, kCpu, kThread };
    constexpr Column kColumns[] = {{"id", true}, {"start", true}, {"cpu", false}, {"globalTid", false}};
    struct Sample
    {
        int64_t id;
        CpuSample sample;
    };
    std::vector<Sample> samples; // by id
    SqliteRows rows = select(table, kColumns, R"( ORDER BY "id")");
    while (rows.next()) {
        tick();
        if (rows.isNull(kId) || rows.isNull(kStart) || rows.isNull(kThread)) {
            ++m_cpuRows.skipped[table];
            continue;
        }
        const std::optional<Timestamp> time = rowTime(rows, kStart, table);
        if (!time) continue;
        const int64_t thread = rows.integer(kThread);
        CpuSample sample;
        sample.time = *time;
        sample.tid = tidOfGlobalId(thread);
        sample.cpu = uint32_t(std::clamp<int64_t>(rows.integerOr(kCpu, 0), 0, UINT32_MAX));
        m_cpuThreads.insert({pidOfGlobalId(thread).value, sample.tid.value});
        noteEnd(sample.time);
        samples.push_back({rows.integer(kId), sample});
    }
    if (m_db.hasTable(nsys::table::kSamplingCallchains))
        forEachCallchain(nsys::table::kSamplingCallchains, [&](int64_t id, uint32_t stack) {
            const auto it = std::lower_bound(
                samples.begin(), samples.end(), id, [](const Sample& s, int64_t key) { return s.id < key; });
            if (it == samples.end() || it->id != id)
                ++m_cpuRows.orphanStacks;
            else
                it->sample.stack = stack;
        });
    std::vector<CpuSample> plain;
    plain.reserve(samples.size());
    for (const Sample& s : samples) {
        m_builder.addCpuSample(s.sample);
        plain.push_back(s.sample);
    }
    if (m_capturedSamplingPeriod > 0)
        m_builder.setSamplingPeriod(m_capturedSamplingPeriod);
    else
        m_builder.setSamplingPeriod(medianSampleGap(std::move(plain)));
}

void Importer::readScheduling()
{
    const char* table = nsys::table::kSchedEvents;
    if (!m_db.hasTable(table)) return;
    enum { kStart, kIn, kThread };
    constexpr Column kColumns[] = {{"start", true}, {"isSchedIn", true}, {"globalTid", false}};
    struct Switch
    {
        int64_t thread; // globalTid
        Timestamp time;
        bool in;
    };
    std::vector<Switch> switches;
    SqliteRows rows = select(table, kColumns);
    while (rows.next()) {
        tick();
        if (rows.isNull(kStart) || rows.isNull(kIn) || rows.isNull(kThread)) {
            ++m_cpuRows.skipped[table];
            continue;
        }
        const std::optional<Timestamp> time = rowTime(rows, kStart, table);
        if (!time) continue;
        switches.push_back({rows.integer(kThread), *time, rows.integer(kIn) != 0});
        noteEnd(switches.back().time);
    }
    std::stable_sort(switches.begin(), switches.end(), [](const Switch& a, const Switch& b) {
        return std::tie(a.thread, a.time) < std::tie(b.thread, b.time);
    });
    for (size_t begin = 0; begin < switches.size();) {
        const int64_t thread = switches[begin].thread;
        const Tid tid = tidOfGlobalId(thread);
        m_cpuThreads.insert({pidOfGlobalId(thread).value, tid.value});
        size_t end = begin, states = 0;
        while (end < switches.size() && switches[end].thread == thread)
            ++end;
        for (size_t i = begin; i + 1 < end; ++i) {
            if (switches[i + 1].time == switches[i].time) continue;
            const ThreadState state = switches[i].in ? ThreadState::Running : ThreadState::Waiting;
            m_builder.addThreadState({switches[i].time, switches[i + 1].time, tid, state, kNoCallStack});
            ++states;
        }
        // The states tile the thread's rows' span: they write back states + 1 rows, or none.
        m_cpuRows.stateless += (end - begin) - states - (states > 0 ? 1 : 0);
        begin = end;
    }
}

int64_t Importer::callchainIdOffset(const char* table, const std::vector<StackRequest>& requests)
{
    constexpr Column kColumns[] = {{"id", true}};
    std::vector<int64_t> ids; // of the table, distinct and sorted
    SqliteRows rows = select(table, kColumns, R"( GROUP BY "id")");
    while (rows.next())
        if (!rows.isNull(0)) ids.push_back(rows.integer(0));
    auto hits = [&](int64_t offset) {
        size_t found = 0;
        for (size_t i = 0; i < requests.size(); ++i) {
            const int64_t id = requests[i].callchain;
            if (i > 0 && requests[i - 1].callchain == id) continue;
            found += id < INT64_MAX && std::binary_search(ids.begin(), ids.end(), id + offset);
        }
        return found;
    };
    return hits(1) > hits(0) ? 1 : 0;
}

void Importer::attachEventStacks(const char* table, std::vector<StackRequest>& requests)
{
    if (requests.empty()) return;
    std::sort(requests.begin(), requests.end(),
        [](const StackRequest& a, const StackRequest& b) { return a.callchain < b.callchain; });
    const int64_t offset = callchainIdOffset(table, requests);
    forEachCallchain(table, [&](int64_t id, uint32_t stack) {
        if (id == INT64_MIN) return;
        auto it = std::lower_bound(requests.begin(), requests.end(), id - offset,
            [](const StackRequest& r, int64_t key) { return r.callchain < key; });
        for (; it != requests.end() && it->callchain == id - offset; ++it) {
            it->found = stack != kNoCallStack;
            if (it->found) m_builder.addEventStack({it->tid, it->start, stack});
        }
    });
    // callchainId 0 is how newer nsys versions say "no backtrace".
    m_cpuRows.stacklessCalls += size_t(std::count_if(requests.begin(), requests.end(),
        [&](const StackRequest& r) { return !r.found && !(r.callchain == 0 && offset == 0); }));
}

void Importer::readCudaBacktraces()
{
    const char* table = nsys::table::kCudaRuntime;
    if (!m_db.hasTable(nsys::table::kCudaCallchains) || !m_db.hasColumn(table, "callchainId")) return;
    enum { kStart, kClass, kThread, kCorrelation, kCallchain };
    constexpr Column kColumns[] = {{"start", true}, {"eventClass", false}, {"globalTid", false},
        {"correlationId", false}, {"callchainId", false}};
    std::vector<StackRequest> requests;
    std::map<std::pair<int64_t, int64_t>, int64_t> copies; // (globalTid, correlationId) -> callchain
    {
        SqliteRows rows = select(table, kColumns, R"( WHERE "callchainId" IS NOT NULL)");
        while (rows.next()) {
            tick();
            const int64_t thread = rows.integerOr(kThread, 0), callchain = rows.integer(kCallchain);
            if (importedApiClass(rows.integerOr(kClass, nsys::kEventClassCudaRuntime)))
                requests.push_back({callchain, tidOfGlobalId(thread), rows.integer(kStart)});
            else if (!rows.isNull(kCorrelation))
                copies.try_emplace({thread, rows.integer(kCorrelation)}, callchain);
            else
                ++m_cpuRows.stacklessCalls;
        }
    }
    if (!copies.empty()) {
        SqliteRows rows = select(table, kColumns, R"( WHERE "correlationId" IS NOT NULL)");
        while (rows.next()) {
            if (!importedApiClass(rows.integerOr(kClass, nsys::kEventClassCudaRuntime))) continue;
            const int64_t thread = rows.integerOr(kThread, 0);
            const auto copy = copies.find({thread, rows.integer(kCorrelation)});
            if (copy == copies.end()) continue;
            requests.push_back({copy->second, tidOfGlobalId(thread), rows.integer(kStart)});
            copies.erase(copy);
        }
        m_cpuRows.stacklessCalls += copies.size(); // backtraces of calls that were not imported
    }
    attachEventStacks(nsys::table::kCudaCallchains, requests);
}

void Importer::readOsRuntimeBacktraces()
{
    const char* table = nsys::table::kOsrtApi;
    if (!m_db.hasTable(nsys::table::kOsrtCallchains) || !m_db.hasColumn(table, "callchainId")) return;
    constexpr Column kColumns[] = {{"start", true}, {"globalTid", false}, {"callchainId", false}};
    std::vector<StackRequest> requests;
    SqliteRows rows = select(table, kColumns, R"( WHERE "callchainId" IS NOT NULL)");
    while (rows.next()) {
        tick();
        requests.push_back({rows.integer(2), tidOfGlobalId(rows.integerOr(1, 0)), rows.integer(0)});
    }
    attachEventStacks(nsys::table::kOsrtCallchains, requests);
}

void Importer::addCpuDiagnostics()
{
    auto add = [&](size_t count, std::string text) {
        if (count) m_builder.addDiagnostic({Severity::Warning, "import", std::to_string(count) + text});
    };
    for (const auto& [table, count] : m_cpuRows.skipped)
        add(count,
            " rows of " + table
                + " lack a value Sightline needs (NULL id, time, thread or direction); they were skipped.");
    add(m_cpuRows.orphanStacks,
        " call stacks in " + std::string(nsys::table::kSamplingCallchains) + " belong to no sample of "
            + nsys::table::kCompositeEvents + "; they were ignored.");
    add(m_cpuRows.damagedStacks,
        " call stacks have stackDepth values that are not 0, 1, 2, ...; their samples and calls are "
        "shown without a stack.");
    add(m_cpuRows.stateless,
        " " + std::string(nsys::table::kSchedEvents)
            + " rows begin no thread state (a thread's only row, or one at the same time as the "
              "thread's next); they are not shown.");
    add(m_cpuRows.stacklessCalls,
        " CUDA or OS runtime calls name a callchainId whose stack is missing, or belong to a call "
        "that was not imported; they are shown without a backtrace.");
}

} // namespace sightline::nsys_import
