#include "model/import/chrome/kineto_event.h"

#include "model/import/json/json_number.h"

#include <cstring>
#include <utility>
#include <vector>

namespace sightline {
namespace {

enum class EventKey : uint8_t { Other, Phase, Category, Name, Pid, Tid, Ts, Dur, Id, BindingPoint, Args };

EventKey eventKeyOf(std::string_view key)
{
    switch (key.size()) {
    case 2:
        if (key == "ph") return EventKey::Phase;
        if (key == "ts") return EventKey::Ts;
        if (key == "id") return EventKey::Id;
        if (key == "bp") return EventKey::BindingPoint;
        break;
    case 3:
        if (key == "cat") return EventKey::Category;
        if (key == "pid") return EventKey::Pid;
        if (key == "tid") return EventKey::Tid;
        if (key == "dur") return EventKey::Dur;
        break;
    case 4:
        if (key == "name") return EventKey::Name;
        if (key == "args") return EventKey::Args;
        break;
    default:
        break;
    }
    return EventKey::Other;
}

// An args key: which field it fills. Kineto's spellings and Sightline's exporter's both.
struct ArgKey
{
    std::string_view text;
    bool isInt;
    uint8_t field; // IntArg or TextArg
};

constexpr ArgKey intKey(std::string_view text, IntArg a)
{
    return {text, true, uint8_t(a)};
}
constexpr ArgKey textKey(std::string_view text, TextArg a)
{
    return {text, false, uint8_t(a)};
}

constexpr ArgKey kArgKeys[] = {
    intKey("correlation", IntArg::Correlation),
    intKey("correlationId", IntArg::Correlation), // nsys2json
    intKey("device", IntArg::Device),
    intKey("context", IntArg::Context),
    intKey("stream", IntArg::Stream),
    intKey("bytes", IntArg::Bytes),
    intKey("registers per thread", IntArg::Registers),
    intKey("shared memory", IntArg::SharedMemory),
    intKey("static shared memory", IntArg::StaticShared),
    intKey("dynamic shared memory", IntArg::DynamicShared),
    intKey("local memory per thread", IntArg::LocalPerThread),
    intKey("local memory total", IntArg::LocalTotal),
    intKey("graph id", IntArg::GraphId),
    intKey("graph node id", IntArg::GraphNodeId),
    intKey("value", IntArg::Value),
    intKey("src device", IntArg::SrcDevice),
    intKey("dst device", IntArg::DstDevice),
    intKey("wait_on_cuda_event_id", IntArg::EventId),
    intKey("event id", IntArg::EventId),
    intKey("return code", IntArg::ReturnCode),
    intKey("return value", IntArg::ReturnValue),
    intKey("category", IntArg::NvtxCategory),
    intKey("end thread", IntArg::EndThread),
    textKey("name", TextArg::Name),
    textKey("labels", TextArg::Labels),
    textKey("copy kind", TextArg::CopyKind),
    textKey("src kind", TextArg::SrcKind),
    textKey("dst kind", TextArg::DstKind),
    textKey("memory kind", TextArg::MemoryKind),
    textKey("cuda_sync_kind", TextArg::SyncKind),
    textKey("sync type", TextArg::SyncKind),
    textKey("launch type", TextArg::LaunchType),
    textKey("short name", TextArg::ShortName),
    textKey("mangled name", TextArg::MangledName),
    textKey("domain", TextArg::Domain),
    textKey("color", TextArg::Color),
    textKey("payload type", TextArg::PayloadType),
    textKey("payload", TextArg::Payload),
};

// The arg keys grouped by length, so a lookup compares against a handful of candidates.
class ArgKeyTable
{
public:
    ArgKeyTable()
    {
        for (const ArgKey& key : kArgKeys) {
            if (key.text.size() >= m_byLength.size()) m_byLength.resize(key.text.size() + 1);
            m_byLength[key.text.size()].push_back(&key);
        }
    }
    const ArgKey* find(std::string_view text) const
    {
        if (text.size() >= m_byLength.size()) return nullptr;
        for (const ArgKey* key : m_byLength[text.size()])
            if (key->text[0] == text[0] && std::memcmp(key->text.data(), text.data(), text.size()) == 0)
                return key;
        return nullptr;
    }

private:
    std::vector<std::vector<const ArgKey*>> m_byLength;
};

const ArgKeyTable& argKeys()
{
    static const ArgKeyTable table;
    return table;
}

// An integer value written as a number or as a string ("12", "0x1f"); false for other values,
// which are skipped.
bool readInteger(JsonCursor& cursor, std::string& scratch, int64_t& out)
{
    const char c = cursor.peek();
    if (c == '"') {
        const std::string_view text = cursor.string(scratch);
        if (!text.empty() && text[0] == '-') {
            const std::optional<uint64_t> magnitude = integerFromString(text.substr(1));
            if (!magnitude) return false;
            out = -int64_t(*magnitude);
            return true;
        }
        const std::optional<uint64_t> value = integerFromString(text);
        if (!value) return false;
        out = int64_t(*value);
        return true;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        const std::optional<int64_t> value = numberTextToInteger(cursor.number());
        if (!value) return false;
        out = *value;
        return true;
    }
    cursor.skipValue();
    return false;
}

// A pid or tid: a number, or a string. A string is a row's name, not its number (Kineto names
// pseudo rows "Spans" and "Traces", other producers name every process), unless it is a number
// written as text, as PyTorch 1.8 writes every tid ("25738"): true for a number, which `text`
// keeps as written when it was a string.
bool readRow(JsonCursor& cursor, std::string& scratch, int64_t& number, std::string_view& text)
{
    if (cursor.peek() != '"') return readInteger(cursor, scratch, number);
    text = cursor.string(scratch);
    const std::optional<uint64_t> value = integerFromString(text);
    if (!value || *value > UINT32_MAX) return false;
    number = int64_t(*value);
    return true;
}

// A timestamp or duration in microseconds -> nanoseconds.
bool readMicros(JsonCursor& cursor, std::string& scratch, int64_t& out)
{
    const char c = cursor.peek();
    std::string_view text;
    if (c == '"') {
        text = cursor.string(scratch);
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        text = cursor.number();
    } else {
        cursor.skipValue();
        return false;
    }
    const std::optional<int64_t> value = microsTextToNanos(text);
    if (!value) return false;
    out = *value;
    return true;
}

// A string, or a number's literal text; empty (and false) for anything else.
bool readText(JsonCursor& cursor, std::string& scratch, std::string_view& out)
{
    const char c = cursor.peek();
    if (c == '"') {
        out = cursor.string(scratch);
        return true;
    }
    if (c == '-' || (c >= '0' && c <= '9')) {
        out = cursor.number();
        return true;
    }
    cursor.skipValue();
    return false;
}

} // namespace

void KinetoEventParser::read(JsonCursor& cursor, KinetoEvent& event)
{
    event = KinetoEvent {};
    cursor.expect('{');
    std::string_view key;
    bool first = true;
    while (cursor.nextKey(key, m_keyScratch, first)) {
        switch (eventKeyOf(key)) {
        case EventKey::Phase: {
            std::string_view phase;
            if (readText(cursor, m_textScratch, phase) && phase.size() == 1) event.phase = phase[0];
            break;
        }
        case EventKey::Category:
            readText(cursor, m_categoryScratch, event.category);
            break;
        case EventKey::Name:
            readText(cursor, m_nameScratch, event.name);
            break;
        case EventKey::BindingPoint:
            readText(cursor, m_bpScratch, event.bindingPoint);
            break;
        case EventKey::Pid:
            event.hasPid = readRow(cursor, m_pidScratch, event.pid, event.pidText);
            break;
        case EventKey::Tid:
            event.hasTid = readRow(cursor, m_tidScratch, event.tid, event.tidText);
            break;
        case EventKey::Ts:
            event.hasTs = readMicros(cursor, m_textScratch, event.ts);
            break;
        case EventKey::Dur:
            event.hasDur = readMicros(cursor, m_textScratch, event.dur);
            break;
        case EventKey::Id: {
            int64_t id = 0;
            event.hasId = readInteger(cursor, m_textScratch, id);
            event.id = uint64_t(id);
            break;
        }
        case EventKey::Args:
            if (cursor.peek() == '{') {
                const char* begin = cursor.position();
                readArgs(cursor, event);
                event.argsText = {begin, size_t(cursor.position() - begin)};
            } else {
                cursor.skipValue();
            }
            break;
        case EventKey::Other:
            cursor.skipValue();
            break;
        }
    }
}

void KinetoEventParser::readArgs(JsonCursor& cursor, KinetoEvent& event)
{
    cursor.expect('{');
    std::string_view key;
    bool first = true;
    while (cursor.nextKey(key, m_keyScratch, first)) {
        if (key == "grid" || key == "block") {
            const bool grid = key[0] == 'g';
            if (cursor.peek() != '[') {
                cursor.skipValue();
                continue;
            }
            readTriple(cursor, grid ? event.grid : event.block);
            (grid ? event.hasGrid : event.hasBlock) = true;
            continue;
        }
        const ArgKey* arg = argKeys().find(key);
        if (!arg) {
            cursor.skipValue();
            continue;
        }
        if (arg->isInt) {
            if (readInteger(cursor, m_textScratch, event.ints[arg->field])) event.intMask |= 1u << arg->field;
        } else if (readText(cursor, m_argScratch[arg->field], event.texts[arg->field])) {
            event.textMask |= 1u << arg->field;
        }
    }
}

void KinetoEventParser::readTriple(JsonCursor& cursor, std::array<int64_t, 3>& out)
{
    cursor.expect('[');
    bool first = true;
    size_t i = 0;
    int64_t value = 0;
    while (cursor.nextElement(first)) {
        if (readInteger(cursor, m_textScratch, value) && i < 3) out[i] = value;
        ++i;
    }
}

} // namespace sightline
