// `sightline profile [options] [--] COMMAND [ARGS...]`: parses the options (profile_args.h),
// runs the collector's profile(), then prints the summary tables with --stats. Usage errors
// return 2; otherwise the target's exit code passes through.
#include "app/cli/cli_args.h"
#include "app/cli/commands.h"
#include "app/cli/profile_args.h"
#include "collector/launcher/gpu_sampler_process.h"
#include "collector/launcher/inject_environment.h"
#include "collector/launcher/profile_command.h"

#include <iostream>

namespace sightline::cli {

int runProfile(const std::vector<std::string>& args)
{
    const Result<collector::ProfileOptions> parsed = parseProfileArgs(args);
    if (!parsed) return usageError("profile", parsed.error());
    const collector::ProfileOptions& options = parsed.value();
    if (options.help) {
        std::cout << profileUsage();
        return 0;
    }
    if (options.listGpuMetricSets) return collector::listGpuMetricSets(collector::findCuptiLibrary());
    const collector::ProfileOutcome outcome = collector::profile(options);
    if (options.stats && !outcome.reportPath.empty()) runStats({outcome.reportPath});
    return outcome.exitCode;
}

} // namespace sightline::cli
