// Running the profiled program: fork/exec with the injection environment, its output passed
// through (or discarded with --show-output=false), SIGINT/SIGTERM/SIGHUP/SIGQUIT sent to the
// launcher forwarded to it, and its exit status returned as a shell would report it. A signal
// the terminal sends to the whole foreground group already reaches the target, so only
// signals addressed to the launcher alone are forwarded.
#pragma once

#include "model/common/result.h"
#include "model/core/time.h"

#include <functional>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace sightline::collector {

struct TargetExit
{
    int exitCode = 0; // the status, or 128 + signal when a signal ended it
    int signal = 0; // the signal that ended it, 0 when it exited
};

class TargetProcess
{
public:
    TargetProcess() = default;
    TargetProcess(const TargetProcess&) = delete;
    TargetProcess& operator=(const TargetProcess&) = delete;
    ~TargetProcess();

    // Starts `command` (searched in PATH) with exactly `environment`. Fails with one sentence
    // when the program cannot be run. `beforeExec`, when given, runs in the launcher with the
    // child's pid while the child waits, just before it execs (perf events are opened there).
    Result<pid_t> start(const std::vector<std::string>& command, const std::vector<std::string>& environment,
        bool showOutput, const std::function<void(pid_t)>& beforeExec = {});

    // Waits for the target to end. With `stopAfter`, sends it SIGTERM once that much time passed.
    // With `onTick`, calls it every `tickInterval` while waiting (live progress).
    TargetExit wait(std::optional<Duration> stopAfter, const std::function<void()>& onTick = {},
        Duration tickInterval = 0);

    pid_t pid() const { return m_pid; }

private:
    pid_t m_pid = -1;
};

} // namespace sightline::collector
