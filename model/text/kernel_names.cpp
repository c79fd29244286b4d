#include "model/text/kernel_names.h"

#include <cstdlib>
#include <cxxabi.h>

namespace sightline {

std::string demangleKernelName(std::string_view mangled)
{
    if (mangled.size() < 2 || mangled[0] != '_' || mangled[1] != 'Z') return std::string(mangled);
    const std::string input(mangled);
    int status = 0;
    char* demangled = abi::__cxa_demangle(input.c_str(), nullptr, nullptr, &status);
    std::string result = status == 0 && demangled ? std::string(demangled) : input;
    std::free(demangled);
    return result;
}

std::string shortKernelName(std::string_view name)
{
    // Cut the parameter list: the first '(' outside template brackets that does not open the
    // "(anonymous namespace)" scope.
    constexpr std::string_view kAnonymous = "(anonymous namespace)";
    int depth = 0;
    size_t end = name.size();
    for (size_t i = 0; i < name.size(); ++i) {
        const char c = name[i];
        if (name.substr(i).starts_with(kAnonymous))
            i += kAnonymous.size() - 1;
        else if (c == '<')
            ++depth;
        else if (c == '>' && depth > 0)
            --depth;
        else if (c == '(' && depth == 0) {
            end = i;
            break;
        }
    }
    std::string_view head = name.substr(0, end);
    // Drop trailing template arguments.
    while (!head.empty() && head.back() == '>') {
        int nesting = 0;
        size_t i = head.size();
        while (i > 0) {
            --i;
            if (head[i] == '>')
                ++nesting;
            else if (head[i] == '<' && --nesting == 0)
                break;
        }
        head = head.substr(0, i);
    }
    // Drop the return type and scopes: keep what follows the last space or "::" outside brackets.
    size_t begin = 0;
    depth = 0;
    for (size_t i = 0; i < head.size(); ++i) {
        const char c = head[i];
        if (c == '<' || c == '(')
            ++depth;
        else if ((c == '>' || c == ')') && depth > 0)
            --depth;
        else if (depth == 0 && c == ' ')
            begin = i + 1;
        else if (depth == 0 && c == ':' && i + 1 < head.size() && head[i + 1] == ':')
            begin = i + 2;
    }
    std::string_view result = head.substr(begin);
    return result.empty() ? std::string(name) : std::string(result);
}

std::string kernelLabel(std::string_view demangled)
{
    std::string label = shortKernelName(demangled);
    if (label.size() >= 10) return label;
    // The first template argument right after the name, up to its first ',', '<' or '>'.
    const size_t at = demangled.find(label + "<");
    if (at == std::string_view::npos) return label;
    const std::string_view arguments = demangled.substr(at + label.size() + 1);
    const std::string_view first = arguments.substr(0, arguments.find_first_of(",<>"));
    if (first.empty() || first.size() == arguments.size()) return label;
    return label + "<" + std::string(first) + ">";
}

} // namespace sightline
