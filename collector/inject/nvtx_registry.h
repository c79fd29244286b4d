// NVTX objects that outlive a call: domains and registered strings. NVTX initialises once per
// library that uses it (libtorch, NCCL, the nvtx Python module...), so every handle returned
// here must be valid process-wide and creating the same domain twice returns the same handle.
//  - A domain handle points to a DomainEntry we allocate and never free.
//  - A registered-string handle is the interned string id itself, cast to a pointer.
// Domain definitions are emitted by the writer (like interned strings), so a fork child's
// spool file gets them again.
#pragma once

#include "collector/inject/interned_strings.h"

#include <cstddef>
#include <cstdint>

namespace sightline::inject::nvtx {

struct DomainEntry
{
    uint32_t id; // 1, 2, ...; 0 is the default domain (a null handle)
    uint32_t nameId; // interned name
};

DomainEntry* createDomain(const char* name, size_t length);

inline uint32_t domainId(const void* handle)
{
    return handle ? static_cast<const DomainEntry*>(handle)->id : 0;
}

inline void* stringHandle(uint32_t stringId)
{
    return reinterpret_cast<void*>(uintptr_t(stringId));
}
inline uint32_t stringIdOf(const void* handle)
{
    return uint32_t(reinterpret_cast<uintptr_t>(handle));
}

// Writer: NvtxDomain records for domains not in this file yet.
using DomainSink = void (*)(void* context, uint32_t domain, const char* name, uint32_t bytes);
void emitNewDomains(DomainSink sink, void* context);
void lockForFork();
void unlockAfterForkParent();
void resetAfterForkChild();

} // namespace sightline::inject::nvtx
