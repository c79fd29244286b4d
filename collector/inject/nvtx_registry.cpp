#include "collector/inject/nvtx_registry.h"

#include "collector/inject/thread_state.h"

#include <cstring>
#include <pthread.h>
#include <unordered_map>
#include <vector>

namespace sightline::inject::nvtx {

namespace {

struct Registry
{
    pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    std::vector<DomainEntry*> domains; // by id - 1
    std::unordered_map<uint32_t, DomainEntry*> byName; // interned name id -> entry
    size_t emitted = 0;
};

Registry& registry()
{
    static Registry* instance = new Registry;
    return *instance;
}

} // namespace

DomainEntry* createDomain(const char* name, size_t length)
{
    const uint32_t nameId = strings::intern(name ? name : "", name ? length : 0);
    Registry& r = registry();
    ToolScope scope;
    pthread_mutex_lock(&r.lock);
    DomainEntry*& entry = r.byName[nameId];
    if (!entry) {
        entry = new DomainEntry {uint32_t(r.domains.size() + 1), nameId};
        r.domains.push_back(entry);
    }
    DomainEntry* result = entry;
    pthread_mutex_unlock(&r.lock);
    return result;
}

void emitNewDomains(DomainSink sink, void* context)
{
    Registry& r = registry();
    ToolScope scope;
    pthread_mutex_lock(&r.lock);
    for (; r.emitted < r.domains.size(); ++r.emitted) {
        const DomainEntry* entry = r.domains[r.emitted];
        const char* name = strings::text(entry->nameId);
        sink(context, entry->id, name ? name : "", name ? uint32_t(strlen(name)) : 0);
    }
    pthread_mutex_unlock(&r.lock);
}

void lockForFork()
{
    pthread_mutex_lock(&registry().lock);
}
void unlockAfterForkParent()
{
    pthread_mutex_unlock(&registry().lock);
}

void resetAfterForkChild()
{
    Registry& r = registry();
    pthread_mutex_init(&r.lock, nullptr);
    r.emitted = 0;
}

} // namespace sightline::inject::nvtx
