#include "collector/launcher/inject_environment.h"

#include "collector/spool/spool_format.h"

#include <cstdlib>
#include <filesystem>
#include <map>
#include <unistd.h>

extern char** environ;

namespace sightline::collector {

namespace {

namespace fs = std::filesystem;

constexpr const char* kLibraryName = "libsightline-inject.so";

fs::path executableFolder()
{
    std::error_code error;
    const fs::path self = fs::read_symlink("/proc/self/exe", error);
    return error ? fs::path() : self.parent_path();
}

std::map<std::string, std::string> currentEnvironment()
{
    std::map<std::string, std::string> variables;
    for (char** entry = environ; entry && *entry; ++entry) {
        const std::string text(*entry);
        if (text.starts_with("SIGHTLINE_PROGRESS_INTERVAL=")) continue; // the launcher's, not the target's
        const size_t equals = text.find('=');
        if (equals != std::string::npos) variables[text.substr(0, equals)] = text.substr(equals + 1);
    }
    return variables;
}

// Sets an injection variable unless another tool already set it to something else.
void claim(std::map<std::string, std::string>& env, std::vector<std::string>& warnings,
    const std::string& name, const std::string& value, const std::string& lost)
{
    auto found = env.find(name);
    if (found != env.end() && !found->second.empty() && found->second != value && found->second != "none") {
        warnings.push_back("sightline profile: " + name + " is already set to " + found->second
            + " (another tool?); it was left as is, so " + lost + " will not be recorded.");
        return;
    }
    env[name] = value;
}

} // namespace

Result<std::string> findInjectionLibrary()
{
    const auto notFound = [](const std::string& searched) {
        return Result<std::string>::failure("sightline profile: " + std::string(kLibraryName)
            + " was not found (looked in " + searched
            + "); reinstall sightline or set SIGHTLINE_INJECT_LIBRARY to its path.");
    };
    if (const char* path = std::getenv("SIGHTLINE_INJECT_LIBRARY"); path && *path)
        return fs::exists(path) ? Result<std::string>(path) : notFound(path);
    const fs::path bin = executableFolder();
    const fs::path candidates[] = {bin / ".." / "lib" / "sightline" / kLibraryName,
        bin / ".." / "lib" / kLibraryName, bin / kLibraryName};
    std::string searched;
    std::error_code error;
    for (const fs::path& candidate : candidates) {
        if (!searched.empty()) searched += ", ";
        searched += candidate.lexically_normal().string();
        if (fs::exists(candidate, error)) return fs::canonical(candidate, error).string();
    }
    return notFound(searched);
}

std::string findCuptiLibrary()
{
    std::vector<fs::path> roots;
    for (const char* variable : {"CUDA_HOME", "CUDA_PATH", "CUDAToolkit_ROOT"})
        if (const char* value = std::getenv(variable); value && *value) roots.emplace_back(value);
    roots.emplace_back("/usr/local/cuda");
    std::error_code error;
    for (const fs::path& root : roots)
        for (const char* folder : {"lib64", "extras/CUPTI/lib64", "lib"})
            for (const char* name : {"libcupti.so.13", "libcupti.so.12", "libcupti.so"})
                if (fs::exists(root / folder / name, error)) return (root / folder / name).string();
    return {};
}

TargetEnvironment buildTargetEnvironment(const ProfileOptions& options, const std::string& injectionLibrary,
    const std::string& cuptiLibrary, const std::string& spoolDir)
{
    TargetEnvironment result;
    std::map<std::string, std::string> env = currentEnvironment();
    for (const auto& [name, value] : options.environment)
        env[name] = value;

    env[spool::kEnvSpoolDir] = spoolDir;
    env[spool::kEnvTrace] = options.traceList();
    env[spool::kEnvOsrtThreshold] = std::to_string(options.osrtThresholdNs);
    std::string keep;
    for (const auto& [name, value] : options.environment) {
        if (!keep.empty()) keep += ',';
        keep += name;
    }
    env[spool::kEnvKeepEnv] = keep;
    if (!cuptiLibrary.empty()) env[spool::kEnvCuptiPath] = cuptiLibrary;
    if (options.cudaMemoryUsage) env[spool::kEnvCudaMemoryUsage] = "1";
    // CPython 3.12 and later name Python functions in native stacks through a perf map when
    // asked to. Asked of every target that samples stacks, not only one named python*: Python
    // also runs behind taskset, torchrun, uv, accelerate or a shell script, and other programs
    // ignore the variable. A variable the user set (PYTHONPERFSUPPORT=0 included) wins.
    if (options.cpu.sample) env.try_emplace("PYTHONPERFSUPPORT", "1");

    if (options.traceCuda)
        claim(env, result.warnings, "CUDA_INJECTION64_PATH", injectionLibrary, "CUDA activity");
    if (options.traceNvtx)
        claim(env, result.warnings, "NVTX_INJECTION64_PATH", injectionLibrary, "NVTX ranges");
    std::string& preload = env["LD_PRELOAD"];
    if (preload.find(injectionLibrary) == std::string::npos) {
        if (!preload.empty()) preload += ':';
        preload += injectionLibrary;
    }

    for (const auto& [name, value] : env)
        result.entries.push_back(name + "=" + value);
    return result;
}

} // namespace sightline::collector
