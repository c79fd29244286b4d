#include "collector/inject/nvtx/nvtx_handlers.h"

#include "collector/inject/clock.h"
#include "collector/inject/nvtx_registry.h"
#include "collector/inject/records.h"

#include <cstring>

namespace sightline::inject::nvtx {

namespace {

using spool::NvtxMessageKind;
using spool::RecordType;

struct Message
{
    NvtxMessageKind kind = NvtxMessageKind::None;
    const char* text = nullptr;
    uint32_t bytes = 0;
    uint32_t registeredId = 0;
};

// wchar_t is UTF-32 on Linux; converts to UTF-8 into `out` (kMaxTextBytes), cutting at a
// whole character.
uint32_t toUtf8(const wchar_t* text, char* out)
{
    uint32_t used = 0;
    for (; text && *text; ++text) {
        const auto c = uint32_t(*text);
        char bytes[4];
        uint32_t n = 0;
        if (c < 0x80) {
            bytes[n++] = char(c);
        } else if (c < 0x800) {
            bytes[n++] = char(0xC0 | (c >> 6));
            bytes[n++] = char(0x80 | (c & 0x3F));
        } else if (c < 0x10000) {
            bytes[n++] = char(0xE0 | (c >> 12));
            bytes[n++] = char(0x80 | ((c >> 6) & 0x3F));
            bytes[n++] = char(0x80 | (c & 0x3F));
        } else {
            bytes[n++] = char(0xF0 | ((c >> 18) & 0x07));
            bytes[n++] = char(0x80 | ((c >> 12) & 0x3F));
            bytes[n++] = char(0x80 | ((c >> 6) & 0x3F));
            bytes[n++] = char(0x80 | (c & 0x3F));
        }
        if (used + n > spool::kMaxTextBytes) break;
        memcpy(out + used, bytes, n);
        used += n;
    }
    return used;
}

Message inlineText(const char* text)
{
    if (!text) return {};
    return {NvtxMessageKind::Inline, text, clampText(strlen(text)), 0};
}

// The fields and message of an event-attributes structure; `scratch` holds converted wide text.
Message describe(const nvtxEventAttributes_t* a, uint32_t domain, spool::NvtxFields& f, char* scratch)
{
    f = {};
    f.domain = domain;
    if (!a || a->size < offsetof(nvtxEventAttributes_t, message) + sizeof(a->message)) return {};
    f.category = a->category;
    f.hasColor = a->colorType == NVTX_COLOR_ARGB;
    f.color = f.hasColor ? a->color : 0;
    if (a->payloadType >= NVTX_PAYLOAD_TYPE_UNSIGNED_INT64 && a->payloadType <= NVTX_PAYLOAD_TYPE_FLOAT) {
        f.payloadType = uint8_t(a->payloadType);
        const bool wide = a->payloadType <= NVTX_PAYLOAD_TYPE_DOUBLE;
        f.payload = wide ? a->payload.ullValue : a->payload.uiValue;
    }
    switch (a->messageType) {
    case NVTX_MESSAGE_TYPE_ASCII:
        return inlineText(a->message.ascii);
    case NVTX_MESSAGE_TYPE_UNICODE:
        return {NvtxMessageKind::Inline, scratch, toUtf8(a->message.unicode, scratch), 0};
    case NVTX_MESSAGE_TYPE_REGISTERED:
        return {NvtxMessageKind::Registered, nullptr, 0, stringIdOf(a->message.registered)};
    default:
        return {};
    }
}

// Appends a push, start or mark record; does nothing when the thread is inside the collector
// (a signal handler interrupting one of our appends) or out of memory.
template <class R>
void emit(
    RecordType type, uint64_t ticks, const spool::NvtxFields& fields, const Message& m, uint64_t rangeId = 0)
{
    ThreadState& state = t_thread;
    if (state.inTool) return;
    ++state.inTool;
    if (ThreadBuffer* buffer = BufferRegistry::current()) {
        if (auto* r = reserveRecord<R>(*buffer, type, m.bytes, buffer->tid())) {
            r->ticks = ticks;
            if constexpr (requires { r->rangeId; }) r->rangeId = rangeId;
            r->fields = fields;
            r->fields.messageKind = m.kind;
            r->fields.registeredId = m.registeredId;
            r->fields.textBytes = m.bytes;
            commitRecord(*buffer, r, m.text, m.bytes);
        }
    }
    --state.inTool;
}

template <class R> void emitTimeOnly(RecordType type, uint64_t ticks, uint64_t word)
{
    ThreadState& state = t_thread;
    if (state.inTool) return;
    ++state.inTool;
    if (ThreadBuffer* buffer = BufferRegistry::current()) {
        if (auto* r = reserveRecord<R>(*buffer, type, 0, buffer->tid())) {
            r->ticks = ticks;
            if constexpr (requires { r->rangeId; })
                r->rangeId = word;
            else
                r->domain = uint32_t(word), r->reserved = 0;
            commitRecord(*buffer, r);
        }
    }
    --state.inTool;
}

uint64_t newRangeId()
{
    ThreadBuffer* buffer = BufferRegistry::current();
    return buffer ? buffer->nextRangeId() : 0;
}

int push(uint64_t ticks, const spool::NvtxFields& fields, const Message& m)
{
    emit<spool::NvtxPushRecord>(RecordType::NvtxPush, ticks, fields, m);
    return t_thread.nvtxDepth++;
}

int pop(uint32_t domain)
{
    const uint64_t ticks = nowTicks();
    ThreadState& state = t_thread;
    if (domain != 0) {
        emitTimeOnly<spool::NvtxPopRecord>(RecordType::NvtxPop, ticks, domain);
    } else if (!state.inTool) {
        ++state.inTool;
        if (ThreadBuffer* buffer = BufferRegistry::current()) {
            if (auto* r = reserveRecord<spool::NvtxPopPlainRecord>(
                    *buffer, RecordType::NvtxPopPlain, 0, buffer->tid())) {
                r->ticks = ticks;
                commitRecord(*buffer, r);
            }
        }
        --state.inTool;
    }
    return state.nvtxDepth > 0 ? --state.nvtxDepth : -1;
}

// nvtxRangePushA: the compact record, its message padded with zero bytes.
int pushPlain(uint64_t ticks, const char* message)
{
    ThreadState& state = t_thread;
    if (!state.inTool) {
        ++state.inTool;
        if (ThreadBuffer* buffer = BufferRegistry::current()) {
            const uint32_t length = message ? clampText(strlen(message)) : 0;
            if (auto* r = reserveRecord<spool::NvtxPushPlainRecord>(
                    *buffer, RecordType::NvtxPushPlain, length, buffer->tid())) {
                r->ticks = ticks;
                char* text = reinterpret_cast<char*>(r + 1);
                memcpy(text, message, length);
                memset(text + length, 0, r->header.bytes - sizeof(*r) - length);
                buffer->commit(r->header.bytes);
            }
        }
        --state.inTool;
    }
    return state.nvtxDepth++;
}

nvtxRangeId_t start(uint64_t ticks, const spool::NvtxFields& fields, const Message& m)
{
    const uint64_t id = newRangeId();
    emit<spool::NvtxStartRecord>(RecordType::NvtxStart, ticks, fields, m, id);
    return id;
}

void nameCategory(uint32_t domain, uint32_t category, const char* name, uint32_t bytes)
{
    ToolScope scope;
    ThreadBuffer* buffer = BufferRegistry::current();
    if (!buffer || !name) return;
    if (auto* r
        = reserveRecord<spool::NvtxCategoryRecord>(*buffer, RecordType::NvtxCategory, bytes, buffer->tid())) {
        r->domain = domain;
        r->category = category;
        r->textBytes = bytes;
        r->reserved = 0;
        commitRecord(*buffer, r, name, bytes);
    }
}

void nameThread(uint32_t threadId, const char* name, uint32_t bytes)
{
    ToolScope scope;
    if (ThreadBuffer* buffer = BufferRegistry::current(); buffer && name)
        emitThreadName(*buffer, threadId, spool::ThreadNameSource::Nvtx, name, bytes);
}

} // namespace

// ---- CORE ----

void markEx(const nvtxEventAttributes_t* attributes)
{
    domainMarkEx(nullptr, attributes);
}

void markA(const char* message)
{
    emit<spool::NvtxMarkRecord>(RecordType::NvtxMark, nowTicks(), spool::NvtxFields {}, inlineText(message));
}

void markW(const wchar_t* message)
{
    const uint64_t ticks = nowTicks();
    char scratch[spool::kMaxTextBytes];
    emit<spool::NvtxMarkRecord>(RecordType::NvtxMark, ticks, spool::NvtxFields {},
        {NvtxMessageKind::Inline, scratch, toUtf8(message, scratch), 0});
}

nvtxRangeId_t rangeStartEx(const nvtxEventAttributes_t* attributes)
{
    return domainRangeStartEx(nullptr, attributes);
}

nvtxRangeId_t rangeStartA(const char* message)
{
    return start(nowTicks(), spool::NvtxFields {}, inlineText(message));
}

nvtxRangeId_t rangeStartW(const wchar_t* message)
{
    const uint64_t ticks = nowTicks();
    char scratch[spool::kMaxTextBytes];
    return start(
        ticks, spool::NvtxFields {}, {NvtxMessageKind::Inline, scratch, toUtf8(message, scratch), 0});
}

void rangeEnd(nvtxRangeId_t id)
{
    emitTimeOnly<spool::NvtxEndRecord>(RecordType::NvtxEnd, nowTicks(), id);
}

int rangePushEx(const nvtxEventAttributes_t* attributes)
{
    return domainRangePushEx(nullptr, attributes);
}

int rangePushA(const char* message)
{
    return pushPlain(nowTicks(), message);
}

int rangePushW(const wchar_t* message)
{
    const uint64_t ticks = nowTicks();
    char scratch[spool::kMaxTextBytes];
    return push(ticks, spool::NvtxFields {}, {NvtxMessageKind::Inline, scratch, toUtf8(message, scratch), 0});
}

int rangePop()
{
    return pop(0);
}

void nameCategoryA(uint32_t category, const char* name)
{
    domainNameCategoryA(nullptr, category, name);
}
void nameCategoryW(uint32_t category, const wchar_t* name)
{
    domainNameCategoryW(nullptr, category, name);
}

void nameOsThreadA(uint32_t threadId, const char* name)
{
    nameThread(threadId, name, name ? clampText(strlen(name)) : 0);
}

void nameOsThreadW(uint32_t threadId, const wchar_t* name)
{
    char scratch[spool::kMaxTextBytes];
    nameThread(threadId, scratch, toUtf8(name, scratch));
}

// ---- CORE2 ----

void domainMarkEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes)
{
    const uint64_t ticks = nowTicks();
    char scratch[spool::kMaxTextBytes];
    spool::NvtxFields fields;
    const Message m = describe(attributes, domainId(domain), fields, scratch);
    emit<spool::NvtxMarkRecord>(RecordType::NvtxMark, ticks, fields, m);
}

nvtxRangeId_t domainRangeStartEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes)
{
    const uint64_t ticks = nowTicks();
    char scratch[spool::kMaxTextBytes];
    spool::NvtxFields fields;
    const Message m = describe(attributes, domainId(domain), fields, scratch);
    return start(ticks, fields, m);
}

void domainRangeEnd(nvtxDomainHandle_t, nvtxRangeId_t id)
{
    rangeEnd(id);
}

int domainRangePushEx(nvtxDomainHandle_t domain, const nvtxEventAttributes_t* attributes)
{
    const uint64_t ticks = nowTicks();
    char scratch[spool::kMaxTextBytes];
    spool::NvtxFields fields;
    const Message m = describe(attributes, domainId(domain), fields, scratch);
    return push(ticks, fields, m);
}

int domainRangePop(nvtxDomainHandle_t domain)
{
    return pop(domainId(domain));
}

void domainNameCategoryA(nvtxDomainHandle_t domain, uint32_t category, const char* name)
{
    nameCategory(domainId(domain), category, name, name ? clampText(strlen(name)) : 0);
}

void domainNameCategoryW(nvtxDomainHandle_t domain, uint32_t category, const wchar_t* name)
{
    char scratch[spool::kMaxTextBytes];
    nameCategory(domainId(domain), category, scratch, toUtf8(name, scratch));
}

nvtxStringHandle_t domainRegisterStringA(nvtxDomainHandle_t, const char* text)
{
    return static_cast<nvtxStringHandle_t>(stringHandle(strings::intern(text)));
}

nvtxStringHandle_t domainRegisterStringW(nvtxDomainHandle_t, const wchar_t* text)
{
    char scratch[spool::kMaxTextBytes];
    return static_cast<nvtxStringHandle_t>(stringHandle(strings::intern(scratch, toUtf8(text, scratch))));
}

nvtxDomainHandle_t domainCreateA(const char* name)
{
    return reinterpret_cast<nvtxDomainHandle_t>(createDomain(name, name ? strlen(name) : 0));
}

nvtxDomainHandle_t domainCreateW(const wchar_t* name)
{
    char scratch[spool::kMaxTextBytes];
    return reinterpret_cast<nvtxDomainHandle_t>(createDomain(scratch, toUtf8(name, scratch)));
}

void domainDestroy(nvtxDomainHandle_t) { }
void initialize(const void*) { }

} // namespace sightline::inject::nvtx
