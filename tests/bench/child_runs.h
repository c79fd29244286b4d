// Running a measured step in a child process, for the benchmarks that compare whole programs
// (Sightline's CLI, sqlite3, python3) or must keep the parent small: each child's wall time,
// exit status, standard output and peak resident memory (wait4's ru_maxrss) are its own.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace sightline::bench {

struct ChildRun
{
    bool ok = false; // exited with status 0
    bool missing = false; // the program could not be started
    double wallSeconds = 0;
    uint64_t peakBytes = 0;
    std::string output; // standard output
};

// Runs argv (found on PATH) to its end, with its standard error left to ours.
ChildRun runChild(const std::vector<std::string>& argv);

// The fastest of `runs` successful runs, with the largest peak memory of any run.
ChildRun fastestOf(int runs, const std::vector<std::string>& argv);

// Runs `step` in a forked child and returns the path it returns (for generating inputs without
// the parent keeping their memory). Exits when the child fails.
std::filesystem::path inChild(const std::function<std::filesystem::path()>& step);

// nsys' cuda_gpu_kern_sum as SQL the sqlite3 CLI runs on an Nsight Systems export (no median()
// there: window functions).
extern const char* const kKernelSummarySql;

} // namespace sightline::bench
