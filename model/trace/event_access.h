// Reading one event of a Trace back in row form (for tooltips, exporters and tests), and the
// names shown for events that have no name of their own (memory operations, synchronization).
#pragma once

#include "model/core/events.h"
#include "model/trace/trace.h"

#include <string>

namespace sightline {

ApiCall apiCallAt(const Trace& trace, EventRef ref);
KernelEvent kernelAt(const Trace& trace, EventRef ref);
MemoryEvent memoryAt(const Trace& trace, EventRef ref);
SyncEvent syncAt(const Trace& trace, EventRef ref);
NvtxEvent nvtxAt(const Trace& trace, EventRef ref);
OsCall osCallAt(const Trace& trace, EventRef ref);

// "[CUDA memcpy Host-to-Device]", "[CUDA memset]": the operation names nsys stats uses.
std::string memoryOpName(const MemoryOp& op);
// "[CUDA stream synchronize]"-style names for synchronization events.
std::string syncOpName(const SyncOp& op);

} // namespace sightline
