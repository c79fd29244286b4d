// Kernel names as tools show them: CUPTI gives the mangled name ("_Z6reducePKfPfi"); the
// timeline shows the demangled one ("reduce(const float*, float*, int)") and tables often the
// short one ("reduce": no return type, scope, template arguments or parameters).
#pragma once

#include <string>
#include <string_view>

namespace sightline {

// The demangled name, or the input itself when it is not a mangled C++ name.
std::string demangleKernelName(std::string_view mangled);

// The bare function name of a demangled (or plain) name: no return type, scopes, template
// arguments or parameters ("void ns::gemm<128, float>(float*)" -> "gemm"). The collector stores
// it as the kernel's short name, as Nsight Systems does.
std::string shortKernelName(std::string_view demangled);

// The short name, and for a generic wrapper with a short name ("Kernel2<cutlass_80_tensorop_
// s1688gemm_...>(Params)") also its first template argument, which says what it runs: the label
// charts and narrow columns show.
std::string kernelLabel(std::string_view demangled);

} // namespace sightline
