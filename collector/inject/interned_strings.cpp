#include "collector/inject/interned_strings.h"

#include "collector/inject/thread_state.h"

#include <cstring>
#include <deque>
#include <pthread.h>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sightline::inject::strings {

namespace {

struct Table
{
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    std::deque<std::string> texts; // id i+1 at index i; stable addresses
    std::unordered_map<std::string_view, uint32_t> byContent;
    std::unordered_map<const void*, uint32_t> byPointer;
    uint32_t emitted = 0; // entries already in this process's file
};

// Constructed on first use and never destroyed: records may arrive during exit.
Table& table()
{
    static Table* instance = new Table;
    return *instance;
}

uint32_t internLocked(Table& t, std::string_view text)
{
    auto found = t.byContent.find(text);
    if (found != t.byContent.end()) return found->second;
    t.texts.emplace_back(text);
    const auto id = uint32_t(t.texts.size());
    t.byContent.emplace(t.texts.back(), id);
    return id;
}

class Locked
{
public:
    explicit Locked(Table& t)
        : m_table(t)
    {
        pthread_mutex_lock(&t.lock);
    }
    ~Locked() { pthread_mutex_unlock(&m_table.lock); }

private:
    ToolScope m_scope;
    Table& m_table;
};

} // namespace

uint32_t intern(const char* text, size_t length)
{
    if (!text) return 0;
    Table& t = table();
    Locked locked(t);
    return internLocked(t, std::string_view(text, length));
}

uint32_t intern(const char* text)
{
    return text ? intern(text, strlen(text)) : 0;
}

uint32_t internStable(const void* key, const char* text)
{
    if (!text) return 0;
    Table& t = table();
    Locked locked(t);
    auto found = t.byPointer.find(key);
    if (found != t.byPointer.end()) return found->second;
    const uint32_t id = internLocked(t, text);
    t.byPointer.emplace(key, id);
    return id;
}

const char* text(uint32_t id)
{
    Table& t = table();
    Locked locked(t);
    return id >= 1 && id <= t.texts.size() ? t.texts[id - 1].c_str() : nullptr;
}

void emitNew(StringSink sink, void* context)
{
    Table& t = table();
    Locked locked(t);
    for (; t.emitted < t.texts.size(); ++t.emitted) {
        const std::string& s = t.texts[t.emitted];
        sink(context, t.emitted + 1, s.data(), uint32_t(s.size()));
    }
}

void lockForFork()
{
    pthread_mutex_lock(&table().lock);
}
void unlockAfterForkParent()
{
    pthread_mutex_unlock(&table().lock);
}

void resetAfterForkChild()
{
    Table& t = table();
    pthread_mutex_init(&t.lock, nullptr);
    t.emitted = 0;
}

} // namespace sightline::inject::strings
