#include "collector/perf/elf_symbols.h"

#include <cstring>
#include <elf.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

namespace sightline::collector {

namespace {

// A read-only mapping of a whole file.
class MappedBytes
{
public:
    explicit MappedBytes(const std::string& path)
    {
        const int fd = open(path.c_str(), O_RDONLY | O_CLOEXEC);
        if (fd < 0) return;
        struct stat st
        {
        };
        if (fstat(fd, &st) == 0 && st.st_size > 0) {
            void* data = mmap(nullptr, size_t(st.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
            if (data != MAP_FAILED) {
                m_data = static_cast<const char*>(data);
                m_size = size_t(st.st_size);
            }
        }
        close(fd);
    }
    MappedBytes(const MappedBytes&) = delete;
    MappedBytes& operator=(const MappedBytes&) = delete;
    ~MappedBytes()
    {
        if (m_data) munmap(const_cast<char*>(m_data), m_size);
    }
    // `count` objects of T at `offset`, or null where they would run past the end.
    template <class T> const T* at(uint64_t offset, uint64_t count = 1) const
    {
        if (!m_data || offset > m_size || count > (m_size - offset) / sizeof(T)) return nullptr;
        return reinterpret_cast<const T*>(m_data + offset);
    }
    size_t size() const { return m_size; }

private:
    const char* m_data = nullptr;
    size_t m_size = 0;
};

// Fills `out.values` from one symbol table section and its string table.
void lookUp(const MappedBytes& file, const Elf64_Shdr& table, const Elf64_Shdr& strings,
    std::span<const std::string_view> names, ElfSymbolValues& out)
{
    if (table.sh_entsize != sizeof(Elf64_Sym)) return;
    const uint64_t count = table.sh_size / sizeof(Elf64_Sym);
    const Elf64_Sym* symbols = file.at<Elf64_Sym>(table.sh_offset, count);
    const char* text = file.at<char>(strings.sh_offset, strings.sh_size);
    if (!symbols || !text || strings.sh_size == 0) return;
    for (uint64_t i = 0; i < count; ++i) {
        const Elf64_Sym& symbol = symbols[i];
        if (symbol.st_name >= strings.sh_size || symbol.st_value == 0 || symbol.st_shndx == SHN_UNDEF)
            continue;
        const char* name = text + symbol.st_name;
        const size_t length = strnlen(name, strings.sh_size - symbol.st_name);
        for (size_t n = 0; n < names.size(); ++n)
            if (out.values[n] == 0 && names[n] == std::string_view(name, length))
                out.values[n] = symbol.st_value;
    }
}

} // namespace

std::optional<ElfSymbolValues> readElfSymbols(
    const std::string& path, std::span<const std::string_view> names)
{
    const MappedBytes file(path);
    const Elf64_Ehdr* header = file.at<Elf64_Ehdr>(0);
    if (!header || memcmp(header->e_ident, ELFMAG, SELFMAG) != 0 || header->e_ident[EI_CLASS] != ELFCLASS64
        || header->e_ident[EI_DATA] != ELFDATA2LSB)
        return std::nullopt;
    ElfSymbolValues out;
    out.positionDependent = header->e_type == ET_EXEC;
    out.values.assign(names.size(), 0);
    if (header->e_phentsize == sizeof(Elf64_Phdr))
        if (const Elf64_Phdr* segments = file.at<Elf64_Phdr>(header->e_phoff, header->e_phnum))
            for (size_t i = 0; i < header->e_phnum; ++i)
                if (segments[i].p_type == PT_LOAD) {
                    out.firstLoadAddress = segments[i].p_vaddr & ~uint64_t(4095);
                    break;
                }
    if (header->e_shentsize != sizeof(Elf64_Shdr)) return out;
    const Elf64_Shdr* sections = file.at<Elf64_Shdr>(header->e_shoff, header->e_shnum);
    if (!sections) return out;
    for (size_t i = 0; i < header->e_shnum; ++i) {
        const Elf64_Shdr& section = sections[i];
        if ((section.sh_type == SHT_SYMTAB || section.sh_type == SHT_DYNSYM)
            && section.sh_link < header->e_shnum)
            lookUp(file, section, sections[section.sh_link], names, out);
    }
    return out;
}

} // namespace sightline::collector
