// Helpers of the CPU sampling tests: `sightline profile` run on a test program with real perf
// events, its report read back, and the questions the tests ask of its stacks.
#pragma once

#include "../support/run_command.h"
#include "model/trace/trace.h"

#include <string>
#include <string_view>

namespace sightline::test {

struct CpuRun
{
    CommandResult run;
    Trace trace;
    bool refused = false; // perf events are not allowed on this machine
};

// `sightline profile -t none OPTIONS PROGRAM` into a report in a scratch folder named `name`.
CpuRun profileCpu(const std::string& name, const std::string& program, const std::string& options);

// The number the program printed after `key` ("main-tid 123"), or -1.
long printed(const std::string& out, const std::string& key);

// Whether a frame of `stack` is named `function` (exactly, or up to its parameters when
// `function` ends in '(').
bool stackHas(const Trace& trace, uint32_t stack, std::string_view function);

} // namespace sightline::test
