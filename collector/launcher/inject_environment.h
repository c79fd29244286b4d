// The environment that injects libsightline-inject.so into the target and every process it
// starts: CUDA_INJECTION64_PATH (CUPTI), NVTX_INJECTION64_PATH (NVTX), LD_PRELOAD (OS runtime
// wrappers; appended to what is there), and the SIGHTLINE_* settings. A variable another tool
// already owns (nsys sets the same injection variables) is left alone and reported.
// When CPU stacks are sampled, PYTHONPERFSUPPORT=1 (unless set already), for Python however it
// is started.
#pragma once

#include "collector/launcher/profile_options.h"
#include "model/common/result.h"

#include <string>
#include <vector>

namespace sightline::collector {

// libsightline-inject.so next to the running executable: <prefix>/lib/sightline/ when
// installed, <build>/lib/ in the build tree, or the executable's own folder.
// SIGHTLINE_INJECT_LIBRARY overrides. When it is not found, the sentence lists the places.
Result<std::string> findInjectionLibrary();

// The toolkit's libcupti for processes that do not bring their own ("" when none is found).
std::string findCuptiLibrary();

struct TargetEnvironment
{
    std::vector<std::string> entries; // "NAME=VALUE", the whole environment of the target
    std::vector<std::string> warnings; // one sentence each
};

TargetEnvironment buildTargetEnvironment(const ProfileOptions& options, const std::string& injectionLibrary,
    const std::string& cuptiLibrary, const std::string& spoolDir);

} // namespace sightline::collector
