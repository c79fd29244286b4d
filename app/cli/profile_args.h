// `sightline profile`'s options, named as in Nsight Systems' `nsys profile`, read into the
// collector's ProfileOptions with the CLI's one argument scanner (cli_args.h). Options come
// before the program to profile; the first positional argument, or `--`, ends them. Each error
// is one sentence saying which option is wrong and what it accepts.
#pragma once

#include "collector/launcher/profile_options.h"
#include "model/common/result.h"

#include <string>
#include <vector>

namespace sightline::cli {

// Help is asked for: ProfileOptions::help is set and nothing else is checked.
Result<collector::ProfileOptions> parseProfileArgs(const std::vector<std::string>& arguments);

std::string profileUsage();

} // namespace sightline::cli
