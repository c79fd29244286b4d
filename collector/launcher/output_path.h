// Where the report goes. `-o NAME` accepts %p (the target's pid), %h (the host name) and %%;
// ".rep" is appended when missing. Without -o the first free name of report1.rep,
// report2.rep, ... is used, so earlier reports are never overwritten. An explicit name that
// exists is refused unless --force-overwrite.
#pragma once

#include "model/common/result.h"

#include <cstdint>
#include <string>

namespace sightline::collector {

// True when the path can only be known once the target runs.
bool outputNeedsPid(const std::string& requested);

Result<std::string> resolveReportPath(
    const std::string& requested, uint32_t pid, const std::string& host, bool forceOverwrite);

} // namespace sightline::collector
