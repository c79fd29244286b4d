// Report-level facts: who recorded what, where and when, and what went wrong while doing it.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace sightline {

using KeyValueList = std::vector<std::pair<std::string, std::string>>;

struct ReportMetadata
{
    std::string toolVersion; // "sightline 0.1.0"
    std::string producer; // "collector", "generator", "nsys sqlite import", ...
    std::vector<std::string> commandLine;
    std::string workingDirectory;
    std::string hostname;
    std::string osName; // "Ubuntu 24.04 (Linux 6.8.0)"
    std::string cpuModel;
    uint32_t cpuCores = 0;
    std::string driverVersion;
    std::string cudaVersion;
    std::string cuptiVersion;
    int64_t startTimeUtcNs = 0; // wall-clock time of t = 0
    KeyValueList options; // collection options, e.g. {"trace", "cuda,nvtx,osrt"}
    KeyValueList environment; // chosen environment variables of the target
    friend bool operator==(const ReportMetadata&, const ReportMetadata&) = default;
};

enum class Severity : uint8_t { Info = 0, Warning = 1, Error = 2 };

struct Diagnostic
{
    Severity severity = Severity::Warning;
    std::string source; // "collector", "reader", "import"
    std::string text; // one sentence
    friend bool operator==(const Diagnostic&, const Diagnostic&) = default;
};

} // namespace sightline
