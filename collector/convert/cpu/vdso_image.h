// The vDSO, the few functions (clock_gettime, gettimeofday, ...) the kernel maps into every
// process as "[vdso]", has no file on disk. The conversion runs on the machine that recorded,
// right after the run, like /proc/kallsyms is read: this process's own vDSO is the same image,
// so it is copied once into a memory file that libdwfl can read, for its symbols and its call
// frame information.
#pragma once

namespace sightline::collector {

// The path under which perf's mapping records name the vDSO.
inline constexpr const char* kVdsoPath = "[vdso]";

// A new descriptor of a read-only memory file holding this machine's vDSO image, for the
// caller to own; -1 where there is none (no vDSO, or no memfd_create).
int openVdsoImage();

} // namespace sightline::collector
