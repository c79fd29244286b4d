// sightline: the command-line front end. Dispatches to one function per subcommand.
#include "app/cli/commands.h"

#include <cstdio>
#include <string>
#include <string_view>
#include <vector>

namespace {

constexpr std::string_view kUsage
    = "Usage: sightline <command> [options] FILE\n"
      "FILE is a .rep report, an Nsight Systems SQLite export or a PyTorch profiler trace (.json, "
      ".json.gz).\n"
      "\n"
      "Commands:\n"
#ifdef SIGHTLINE_WITH_COLLECTOR
      "  profile  run a program and record its CUDA, NVTX and OS runtime activity into a .rep report\n"
#endif
      "  info     metadata, event counts per kind, time span and diagnostics of a report\n"
      "  stats    nsys-style summary tables (cuda_api_sum, cuda_gpu_kern_sum, ...)\n"
      "  analyze  what limits the program: a verdict, GPU time and findings with their evidence\n"
      "  export   write a report as Nsight Systems SQLite, Chrome trace JSON or CSV\n"
      "  import   convert an Nsight Systems SQLite export or a PyTorch profiler JSON trace to .rep\n"
      "\n"
      "Run 'sightline <command> --help' for a command's options.\n"
      "Options: --help, --version\n";

} // namespace

int main(int argc, char** argv)
{
    std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        std::fputs(kUsage.data(), args.empty() ? stderr : stdout);
        return args.empty() ? 2 : 0;
    }
    if (args[0] == "--version" || args[0] == "-v") {
        std::printf("sightline %s\n", SIGHTLINE_VERSION);
        return 0;
    }
    const std::string command = args[0];
    args.erase(args.begin());
    if (command == "info") return sightline::cli::runInfo(args);
    if (command == "stats") return sightline::cli::runStats(args);
    if (command == "analyze") return sightline::cli::runAnalyze(args);
    if (command == "export") return sightline::cli::runExport(args);
    if (command == "import") return sightline::cli::runImport(args);
    if (command == "profile") {
#ifdef SIGHTLINE_WITH_COLLECTOR
        return sightline::cli::runProfile(args);
#else
        std::fputs(
            "sightline: this build has no collector (it was built without the CUDA toolkit's CUPTI and "
            "NVTX headers); rebuild with the toolkit at /usr/local/cuda to use 'profile'.\n",
            stderr);
        return 2;
#endif
    }
    std::fprintf(stderr,
        "sightline: unknown command '%s'; run 'sightline --help' for the list of commands.\n",
        command.c_str());
    return 2;
}
