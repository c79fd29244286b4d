#include "collector/launcher/gpu_sampler_process.h"

#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

extern char** environ;

namespace sightline::collector {

namespace {

namespace fs = std::filesystem;

constexpr const char* kSamplerName = "sightline-gpu-sampler";
// Enabling PM sampling takes about a second per device; a sampler silent for this long is stuck.
constexpr int kReadyTimeoutMs = 60'000;

std::vector<char*> pointers(std::vector<std::string>& strings)
{
    std::vector<char*> out;
    for (std::string& s : strings)
        out.push_back(s.data());
    out.push_back(nullptr);
    return out;
}

std::vector<std::string> samplerArguments(const std::string& sampler, const ProfileOptions& options,
    const std::string& spoolDir, const std::string& cupti)
{
    std::vector<std::string> args {sampler, "--output", spoolDir, "--devices", options.gpuMetricsDevices,
        "--frequency", std::to_string(options.gpuMetricsFrequency), "--set", options.gpuMetricsSet};
    if (!cupti.empty()) {
        args.push_back("--cupti");
        args.push_back(cupti);
    }
    return args;
}

} // namespace

Result<std::string> findGpuSampler()
{
    if (const char* path = std::getenv("SIGHTLINE_GPU_SAMPLER"); path && *path) return std::string(path);
    std::error_code error;
    const fs::path self = fs::read_symlink("/proc/self/exe", error);
    const fs::path candidate = self.parent_path() / kSamplerName;
    if (!error && fs::exists(candidate, error)) return candidate.string();
    return Result<std::string>::failure("sightline profile: " + std::string(kSamplerName)
        + " was not found beside " + self.string()
        + ", so GPU metrics are not recorded; reinstall sightline or set SIGHTLINE_GPU_SAMPLER.");
}

GpuSamplerProcess::~GpuSamplerProcess()
{
    stop();
}

Status GpuSamplerProcess::start(
    const ProfileOptions& options, const std::string& spoolDir, const std::string& cupti)
{
    const Result<std::string> sampler = findGpuSampler();
    if (!sampler) return Status::failure(sampler.error());
    int input[2], output[2];
    if (pipe2(input, O_CLOEXEC) != 0)
        return Status::failure("sightline profile: cannot start the GPU sampler (no pipe).");
    if (pipe2(output, O_CLOEXEC) != 0) {
        close(input[0]);
        close(input[1]);
        return Status::failure("sightline profile: cannot start the GPU sampler (no pipe).");
    }
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, input[0], 0);
    posix_spawn_file_actions_adddup2(&actions, output[1], 1);
    std::vector<std::string> args = samplerArguments(sampler.value(), options, spoolDir, cupti);
    std::vector<char*> argv = pointers(args);
    pid_t pid = -1;
    const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(input[0]);
    close(output[1]);
    if (spawned != 0) {
        close(input[1]);
        close(output[0]);
        return Status::failure("sightline profile: cannot start " + sampler.value() + " ("
            + std::strerror(spawned) + "), so GPU metrics are not recorded.");
    }
    m_pid = pid;
    m_input = input[1];
    // Wait for its "ready" line.
    std::string said;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(kReadyTimeoutMs);
    while (said.find('\n') == std::string::npos) {
        const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
            deadline - std::chrono::steady_clock::now());
        pollfd fd {output[0], POLLIN, 0};
        if (left.count() <= 0 || poll(&fd, 1, int(left.count())) <= 0) break;
        char buffer[64];
        const ssize_t n = read(output[0], buffer, sizeof buffer);
        if (n <= 0) break;
        said.append(buffer, size_t(n));
    }
    close(output[0]);
    if (said.rfind("ready", 0) != 0) {
        stop();
        return Status::failure("sightline profile: the GPU sampler did not start within "
            + std::to_string(kReadyTimeoutMs / 1000) + " s, so GPU metrics are not recorded.");
    }
    return {};
}

void GpuSamplerProcess::stop()
{
    if (m_input >= 0) close(m_input);
    m_input = -1;
    if (m_pid <= 0) return;
    // Its last decode takes a moment; a sampler stuck in the driver is not waited for forever.
    int status = 0;
    for (int waited = 0; waited < 30'000; waited += 10) {
        if (waitpid(m_pid, &status, WNOHANG) == m_pid) {
            m_pid = -1;
            return;
        }
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    kill(m_pid, SIGKILL);
    waitpid(m_pid, &status, 0);
    m_pid = -1;
}

int listGpuMetricSets(const std::string& cupti)
{
    const Result<std::string> sampler = findGpuSampler();
    if (!sampler) {
        std::fprintf(stderr, "%s\n", sampler.error().c_str());
        return 1;
    }
    std::vector<std::string> args {sampler.value(), "--list-sets"};
    if (!cupti.empty()) {
        args.push_back("--cupti");
        args.push_back(cupti);
    }
    std::vector<char*> argv = pointers(args);
    pid_t pid = -1;
    if (posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) return 1;
    int status = 0;
    waitpid(pid, &status, 0);
    return WIFEXITED(status) ? WEXITSTATUS(status) : 1;
}

} // namespace sightline::collector
