#include "collector/convert/cpu/vdso_image.h"

#include <algorithm>
#include <cstdint>
#include <elf.h>
#include <fcntl.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <unistd.h>

namespace sightline::collector {

namespace {

// The bytes the vDSO's ELF image spans: its loadable segments and its section headers.
size_t imageSize(const Elf64_Ehdr* header)
{
    const auto* base = reinterpret_cast<const char*>(header);
    size_t end = header->e_shoff + size_t(header->e_shnum) * header->e_shentsize;
    const auto* segments = reinterpret_cast<const Elf64_Phdr*>(base + header->e_phoff);
    for (int i = 0; i < header->e_phnum; ++i)
        if (segments[i].p_type == PT_LOAD)
            end = std::max<size_t>(end, segments[i].p_offset + segments[i].p_filesz);
    return end;
}

int makeImage()
{
    const auto* header = reinterpret_cast<const Elf64_Ehdr*>(getauxval(AT_SYSINFO_EHDR));
    if (!header || header->e_ident[EI_CLASS] != ELFCLASS64) return -1;
    const size_t size = imageSize(header);
    if (size == 0 || size > (1u << 20)) return -1; // a few pages in practice
    const int fd = memfd_create("vdso", MFD_CLOEXEC);
    if (fd < 0) return -1;
    const auto* bytes = reinterpret_cast<const char*>(header);
    for (size_t done = 0; done < size;) {
        const ssize_t wrote = write(fd, bytes + done, size - done);
        if (wrote <= 0) {
            close(fd);
            return -1;
        }
        done += size_t(wrote);
    }
    return fd;
}

} // namespace

int openVdsoImage()
{
    static const int image = makeImage(); // kept open for the process's life
    return image < 0 ? -1 : fcntl(image, F_DUPFD_CLOEXEC, 0);
}

} // namespace sightline::collector
