// `sightline profile [options] [--] COMMAND [ARGS...]`: parses the options (named as in
// `nsys profile`), runs the collector's profile(), then prints the summary tables with
// --stats. Usage errors return 2; otherwise the target's exit code passes through.
#include "app/cli/commands.h"
#include "collector/launcher/profile_command.h"

#include <iostream>

namespace sightline::cli {

int runProfile(std::vector<std::string> args)
{
    const Result<collector::ProfileOptions> parsed = collector::parseProfileOptions(args);
    if (!parsed) {
        std::cerr << parsed.error() << std::endl;
        return 2;
    }
    const collector::ProfileOptions& options = parsed.value();
    if (options.help) {
        std::cout << collector::profileUsage();
        return 0;
    }
    const collector::ProfileOutcome outcome = collector::profile(options);
    if (options.stats && !outcome.reportPath.empty()) runStats({outcome.reportPath});
    return outcome.exitCode;
}

} // namespace sightline::cli
