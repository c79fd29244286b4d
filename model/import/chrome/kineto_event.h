// One element of a Chrome trace's "traceEvents" array, as the Kineto importer needs it: the
// standard fields (ph, cat, name, pid, tid, ts, dur, id, bp, s) and the `args` members that
// PyTorch's profiler (and Sightline's own JSON exporter) write for CUDA activities. Parsed in
// one pass by readKinetoEvent without building a tree; strings are views that stay valid only
// until the stream moves on, so the event must be consumed before the next one is read.
#pragma once

#include "model/import/json/json_cursor.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace sightline {

// Integer-valued args.
enum class IntArg : uint8_t {
    Correlation,
    Device,
    Context,
    Stream,
    Bytes,
    Registers,
    SharedMemory,
    StaticShared,
    DynamicShared,
    LocalPerThread,
    LocalTotal,
    GraphId,
    GraphNodeId,
    Value,
    SrcDevice,
    DstDevice,
    EventId,
    ReturnCode,
    ReturnValue,
    NvtxCategory,
    EndThread,
    Count
};
// Text-valued args (numbers written as text are kept as their literal text too).
enum class TextArg : uint8_t {
    Name,
    Labels,
    CopyKind,
    SrcKind,
    DstKind,
    MemoryKind,
    SyncKind,
    LaunchType,
    ShortName,
    MangledName,
    Domain,
    Color,
    PayloadType,
    Payload,
    Count
};

struct KinetoEvent
{
    char phase = 0;
    std::string_view category;
    std::string_view name;
    std::string_view bindingPoint; // "bp"
    // A numeric pid / tid, written as a number or as a string of digits ("Spans" and other
    // names are not numbers).
    bool hasPid = false, hasTid = false;
    int64_t pid = 0, tid = 0;
    std::string_view pidText, tidText; // a pid / tid written as a string (generic traces name rows)
    bool hasTs = false, hasDur = false;
    int64_t ts = 0, dur = 0; // nanoseconds, exactly as written (microsecond decimals)
    bool hasId = false;
    uint64_t id = 0; // flow and async ids
    std::string_view argsText; // the "args" object as written ("{...}"): counter events read it whole

    uint32_t intMask = 0; // which IntArg are present
    uint32_t textMask = 0; // which TextArg are present
    std::array<int64_t, size_t(IntArg::Count)> ints {};
    std::array<std::string_view, size_t(TextArg::Count)> texts {};
    bool hasGrid = false, hasBlock = false;
    std::array<int64_t, 3> grid {1, 1, 1};
    std::array<int64_t, 3> block {1, 1, 1};

    bool has(IntArg a) const { return intMask & (1u << unsigned(a)); }
    bool has(TextArg a) const { return textMask & (1u << unsigned(a)); }
    int64_t get(IntArg a, int64_t fallback = 0) const { return has(a) ? ints[size_t(a)] : fallback; }
    std::string_view get(TextArg a) const { return texts[size_t(a)]; }
};

// Reusable parser: owns the scratch strings that escaped strings decode into.
class KinetoEventParser
{
public:
    // Reads one event object (the cursor is at its '{'); `event` is reset first.
    void read(JsonCursor& cursor, KinetoEvent& event);

private:
    void readArgs(JsonCursor& cursor, KinetoEvent& event);
    void readTriple(JsonCursor& cursor, std::array<int64_t, 3>& out);

    std::string m_keyScratch;
    std::string m_categoryScratch, m_nameScratch, m_bpScratch, m_textScratch, m_pidScratch, m_tidScratch;
    std::array<std::string, size_t(TextArg::Count)> m_argScratch;
};

} // namespace sightline
