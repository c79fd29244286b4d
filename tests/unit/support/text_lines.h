// The lines of a command's or a table's text output, for tests that compare them one by one.
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace sightline::test {

inline std::vector<std::string> linesOf(const std::string& text)
{
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        lines.push_back(line);
    return lines;
}

} // namespace sightline::test
