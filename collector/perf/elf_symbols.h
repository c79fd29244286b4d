// The values of named symbols in an ELF file (.symtab and .dynsym) and where its first loadable
// segment starts, read with <elf.h> alone: the launcher finds CPython's runtime in a target
// while it runs (python_frames.h) without loading a symbol library.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace sightline::collector {

struct ElfSymbolValues
{
    bool positionDependent = false; // ET_EXEC: symbol values are addresses as they are
    uint64_t firstLoadAddress = 0; // the first PT_LOAD segment's address, page-aligned
    std::vector<uint64_t> values; // one per name asked for; 0 where the file has no such symbol
};

// The symbols `names` of the 64-bit little-endian ELF file at `path`; nothing where it is not one.
std::optional<ElfSymbolValues> readElfSymbols(
    const std::string& path, std::span<const std::string_view> names);

} // namespace sightline::collector
