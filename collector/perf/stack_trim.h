// Trims the user-stack copies of perf samples to the part the kernel found in use.
//
// PERF_SAMPLE_STACK_USER makes every sample carry the whole requested copy (4 KiB here) however
// shallow the stack, with `dyn_size` saying how much of it was really copied. A thread spinning a
// few frames deep uses a few hundred bytes of it. Dropping the rest as the launcher drains the
// rings keeps the CPU recording file (and reading it back after the run) proportional to the
// stacks themselves; a trimmed sample is still a well-formed record (size = the used bytes,
// rounded up to 8) that any perf-format reader reads the same.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

namespace sightline::collector {

// Appends `records` (whole perf records, as drained from a ring) to `out`, each sample's stack
// copy cut to its `dyn_size`. `sampleType` and `registerCount` (the registers PERF_SAMPLE_REGS_USER
// asks for) describe the samples; a record that does not parse as such is appended unchanged.
void appendTrimmedRecords(
    std::string_view records, uint64_t sampleType, uint32_t registerCount, std::vector<char>& out);

} // namespace sightline::collector
