// How much memory the viewer lets one report's events take. A report whose events would need
// more (ReportOverview::events * kResidentBytesPerEvent) is not read whole: the viewer shows its
// overview and reads the time ranges the user asks for, each within the budget. The budget is a
// quarter of the machine's memory unless SIGHTLINE_MEMORY_BUDGET or --memory-budget says
// otherwise; with that default a 1-billion-event report (about 36 GB whole) stays an overview on
// a 128 GB machine, while 100 million events (about 3.6 GB) load whole.
#pragma once

#include "model/common/result.h"

#include <QString>
#include <cstdint>
#include <optional>

namespace sightline::ui {

// The budget in bytes: the one set last (sightline-ui sets --memory-budget or
// SIGHTLINE_MEMORY_BUDGET at start), else a quarter of the physical memory.
uint64_t memoryBudget();
void setMemoryBudget(uint64_t bytes);

// "8G", "512M", "1.5GB", "2 GiB", "1000000" (bytes); suffixes K, M, G, T are powers of 1024.
// Fails with one sentence naming `what` (where the text came from).
Result<uint64_t> parseMemorySize(const QString& text, const QString& what);

} // namespace sightline::ui
