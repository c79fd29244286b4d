#include "collector/convert/assemble/host_metadata.h"

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <sys/utsname.h>
#include <thread>
#include <unistd.h>

namespace sightline::collector {

namespace {

std::string trim(std::string text)
{
    const size_t first = text.find_first_not_of(" \t\r\n\"");
    const size_t last = text.find_last_not_of(" \t\r\n\"");
    return first == std::string::npos ? std::string() : text.substr(first, last - first + 1);
}

// The value of `key` in "key<sep>value" lines of a file, or "".
std::string fileValue(const std::string& path, const std::string& key, char separator)
{
    std::ifstream in(path);
    for (std::string line; std::getline(in, line);) {
        const size_t at = line.find(separator);
        if (at != std::string::npos && trim(line.substr(0, at)) == key) return trim(line.substr(at + 1));
    }
    return {};
}

std::string commandOutput(const char* command)
{
    std::string out;
    if (FILE* pipe = popen(command, "r")) {
        std::array<char, 4096> chunk;
        size_t n;
        while ((n = fread(chunk.data(), 1, chunk.size(), pipe)) > 0)
            out.append(chunk.data(), n);
        pclose(pipe);
    }
    return out;
}

std::vector<std::string> splitCsv(const std::string& line)
{
    std::vector<std::string> fields;
    std::stringstream stream(line);
    for (std::string field; std::getline(stream, field, ',');)
        fields.push_back(trim(field));
    return fields;
}

void queryNvidiaSmi(HostFacts& facts)
{
    const std::string list
        = commandOutput("nvidia-smi --query-gpu=uuid,pci.bus_id,clocks.max.memory,driver_version "
                        "--format=csv,noheader,nounits "
                        "2>/dev/null");
    std::stringstream lines(list);
    for (std::string line; std::getline(lines, line);) {
        const std::vector<std::string> f = splitCsv(line);
        if (f.size() < 4 || f[0].rfind("GPU-", 0) != 0) continue;
        GpuFacts gpu {f[0], f[1], 0};
        try {
            gpu.memoryClockKHz = uint32_t(std::stoul(f[2]) * 1000);
        } catch (...) { }
        facts.gpus.push_back(gpu);
        facts.driverVersion = f[3];
    }
    const std::string banner = commandOutput("nvidia-smi 2>/dev/null");
    const size_t at = banner.find("CUDA Version:");
    if (at != std::string::npos) {
        std::stringstream rest(banner.substr(at + 13));
        rest >> facts.cudaVersion;
    }
}

} // namespace

HostFacts collectHostFacts(bool queryGpus)
{
    HostFacts facts;
    char host[256] = {};
    if (gethostname(host, sizeof(host) - 1) == 0) facts.hostname = host;
    std::string os = fileValue("/etc/os-release", "PRETTY_NAME", '=');
    utsname names {};
    if (uname(&names) == 0)
        os += std::string(os.empty() ? "" : " ") + "(" + names.sysname + " " + names.release + ")";
    facts.osName = os;
    facts.cpuModel = fileValue("/proc/cpuinfo", "model name", ':');
    facts.cpuCores = std::thread::hardware_concurrency();
    if (queryGpus) queryNvidiaSmi(facts);
    if (facts.driverVersion.empty()) {
        // "NVRM version: NVIDIA UNIX x86_64 Kernel Module  570.86.15  ..."
        std::stringstream line(fileValue("/proc/driver/nvidia/version", "NVRM version", ':'));
        for (std::string word; line >> word;)
            if (!word.empty() && std::isdigit(static_cast<unsigned char>(word[0]))
                && word.find('.') != std::string::npos) {
                facts.driverVersion = word;
                break;
            }
    }
    return facts;
}

void completeGpus(std::vector<Gpu>& gpus, const std::vector<GpuFacts>& facts)
{
    for (Gpu& gpu : gpus)
        for (const GpuFacts& f : facts)
            if (f.uuid == gpu.uuid) {
                gpu.busId = f.busId;
                gpu.memoryClockKHz = f.memoryClockKHz;
            }
}

std::string cuptiVersionText(uint32_t version)
{
    if (version == 0) return {};
    if (version < 10000) return std::string("API ") + std::to_string(version);
    return std::to_string(version / 10000) + "." + std::to_string(version / 100 % 100) + "."
        + std::to_string(version % 100);
}

void applyHostFacts(const HostFacts& facts, ReportMetadata& metadata)
{
    metadata.hostname = facts.hostname;
    metadata.osName = facts.osName;
    metadata.cpuModel = facts.cpuModel;
    metadata.cpuCores = facts.cpuCores;
    metadata.driverVersion = facts.driverVersion;
    metadata.cudaVersion = facts.cudaVersion;
}

} // namespace sightline::collector
