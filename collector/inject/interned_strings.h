// The process's interned string table for names that repeat: NVTX registered strings and
// domain names, CUDA kernel and API function names, GPU names. Ids start at 1 and are dense;
// the writer emits each new entry once as a String record before the records that could
// use it are read back. Not for hot paths: one mutex guards the table (NVTX inline messages
// are copied into their records instead).
#pragma once

#include <cstddef>
#include <cstdint>

namespace sightline::inject {

using StringSink = void (*)(void* context, uint32_t id, const char* text, uint32_t bytes);

namespace strings {

// The id of `text` (interned by content).
uint32_t intern(const char* text, size_t length);
uint32_t intern(const char* text);
// The id of a string identified by a stable pointer (CUPTI kernel names): the pointer is
// looked up first, the content only on a miss.
uint32_t internStable(const void* key, const char* text);
// The text of an id, valid for the process's lifetime; null for an unknown id.
const char* text(uint32_t id);

// Writer: hands over entries not emitted yet to this spool file.
void emitNew(StringSink sink, void* context);
// Fork handlers: the table is locked across fork(); the child re-emits everything to its file.
void lockForFork();
void unlockAfterForkParent();
void resetAfterForkChild();

} // namespace strings
} // namespace sightline::inject
