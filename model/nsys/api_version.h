// Nsight Systems names CUDA API calls with their ABI version ("cudaLaunchKernel_v7000"); its
// reports and GUI show them without it, by one rule: a name ending in "_v" and four digits.
// The importer shows names without it; the exporter writes the versioned name back where the
// report still holds it, so SQL written for nsys files finds "cudaLaunchKernel_v7000".
#pragma once

#include <algorithm>
#include <string_view>

namespace sightline::nsys {

// `name` without its "_vNNNN" suffix, or `name` itself when it has none.
constexpr std::string_view withoutApiVersion(std::string_view name)
{
    constexpr size_t kSuffixLength = 6; // "_v7000"
    if (name.size() <= kSuffixLength) return name;
    const std::string_view suffix = name.substr(name.size() - kSuffixLength);
    const bool versioned = suffix[0] == '_' && suffix[1] == 'v'
        && std::all_of(suffix.begin() + 2, suffix.end(), [](char c) { return c >= '0' && c <= '9'; });
    return versioned ? name.substr(0, name.size() - kSuffixLength) : name;
}

} // namespace sightline::nsys
