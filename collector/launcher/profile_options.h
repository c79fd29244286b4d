// The options of `sightline profile`, named as in Nsight Systems' `nsys profile`, and their
// parsing. Options come before the command; `--` ends them explicitly. Every error is one
// sentence saying which option is wrong and what is accepted.
#pragma once

#include "collector/convert/assemble/spool_merge.h"
#include "model/common/result.h"
#include "model/core/metadata.h"

#include <string>
#include <utility>
#include <vector>

namespace sightline::collector {

struct ProfileOptions
{
    bool traceCuda = true;
    bool traceNvtx = true;
    bool traceOsrt = true;
    int64_t osrtThresholdNs = 1000;
    std::string output; // as given (may hold %p, %h); empty: report1.rep, report2.rep...
    bool forceOverwrite = false;
    CaptureSpec capture;
    bool stats = false;
    std::vector<std::pair<std::string, std::string>> environment; // -e NAME=VALUE
    bool showOutput = true;
    bool quiet = false;
    bool help = false;
    std::vector<std::string> command; // the program and its arguments

    std::string traceList() const; // "cuda,nvtx,osrt" or "none"
    // The options as the report's metadata lists them.
    KeyValueList asMetadata() const;
    // What converting the recording into a report needs of these options.
    ConversionOptions conversion() const;
};

Result<ProfileOptions> parseProfileOptions(const std::vector<std::string>& args);

std::string profileUsage();

} // namespace sightline::collector
