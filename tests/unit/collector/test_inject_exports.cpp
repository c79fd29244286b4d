// libsightline-inject.so is loaded into other people's processes: it must export exactly the
// names its version script lists (entry points and OS-runtime wrappers) and depend on nothing
// but the C library: no libstdc++, no CUDA, no protobuf.
#include "../support/run_command.h"

#include <catch2/catch.hpp>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>

using namespace sightline::test;

namespace {

std::set<std::string> namesInVersionScript(const std::string& path)
{
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    std::string script = std::regex_replace(text.str(), std::regex(R"(/\*[\s\S]*?\*/)"), "");
    const size_t global = script.find("global:");
    const size_t local = script.find("local:");
    std::set<std::string> names;
    std::stringstream list(script.substr(global + 7, local - global - 7));
    for (std::string word; std::getline(list, word, ';');) {
        word = std::regex_replace(word, std::regex(R"(\s+)"), "");
        if (!word.empty()) names.insert(word);
    }
    return names;
}

} // namespace

TEST_CASE("the injection library exports only its version script's names and needs only libc")
{
    const std::string library = INJECT_LIBRARY;
    const CommandResult symbols = runCommand("nm -D --defined-only " + shellQuote(library));
    if (symbols.exitCode != 0) {
        WARN("nm is not available, the export check is skipped: " << symbols.err);
        return;
    }
    std::set<std::string> exported;
    std::stringstream lines(symbols.out);
    for (std::string line; std::getline(lines, line);) {
        std::stringstream fields(line);
        std::string address, type, name;
        if (fields >> address >> type >> name) exported.insert(name.substr(0, name.find('@')));
    }
    const std::set<std::string> listed = namesInVersionScript(INJECT_EXPORTS_MAP);
    REQUIRE(listed.size() > 60);
    CHECK(exported == listed);

    const CommandResult dynamic = runCommand("readelf -d " + shellQuote(library));
    REQUIRE(dynamic.exitCode == 0);
    std::set<std::string> needed;
    const std::regex neededLine(R"(\(NEEDED\)\s+Shared library: \[([^\]]+)\])");
    for (auto it = std::sregex_iterator(dynamic.out.begin(), dynamic.out.end(), neededLine);
         it != std::sregex_iterator(); ++it)
        needed.insert((*it)[1]);
    for (const std::string& dependency : needed)
        CHECK((dependency.rfind("libc.so", 0) == 0 || dependency.rfind("ld-linux", 0) == 0
            || dependency.rfind("libm.so", 0) == 0));
}
