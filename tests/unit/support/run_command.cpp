#include "run_command.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sys/wait.h>
#include <unistd.h>

namespace sightline::test {

std::string shellQuote(const std::string& word)
{
    std::string out = "'";
    for (char c : word)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}

CommandResult runCommand(const std::string& commandLine)
{
    CommandResult result;
    const auto errPath
        = std::filesystem::temp_directory_path() / ("sightline-test-err-" + std::to_string(getpid()));
    const std::string full = commandLine + " 2>" + shellQuote(errPath.string());
    std::FILE* pipe = popen(full.c_str(), "r");
    if (!pipe) return result;
    char buffer[65536];
    for (size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;)
        result.out.append(buffer, n);
    const int status = pclose(pipe);
    result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    std::ifstream err(errPath);
    result.err.assign(std::istreambuf_iterator<char>(err), {});
    std::filesystem::remove(errPath);
    return result;
}

} // namespace sightline::test
