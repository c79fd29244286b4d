// The fuzz harnesses' one shared piece: the readers take a path, so each input is written to a
// file of this process first (in $TMPDIR or /tmp, named after the process, reused).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <unistd.h>

namespace sightline::fuzz {

inline const std::string& writeInputFile(const uint8_t* data, size_t size, const char* suffix)
{
    static const std::string path = [suffix] {
        const char* tmp = std::getenv("TMPDIR");
        return std::string(tmp && *tmp ? tmp : "/tmp") + "/sightline-fuzz-" + std::to_string(::getpid())
            + suffix;
    }();
    std::FILE* file = std::fopen(path.c_str(), "wb");
    if (!file) std::abort();
    if (size > 0 && std::fwrite(data, 1, size, file) != size) std::abort();
    std::fclose(file);
    return path;
}

} // namespace sightline::fuzz
