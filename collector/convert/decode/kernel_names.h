// Kernel names as tools show them: CUPTI gives the mangled name ("_Z6reducePKfPfi"); the
// timeline shows the demangled one ("reduce(const float*, float*, int)") and tables often the
// short one ("reduce": no return type, scope, template arguments or parameters).
#pragma once

#include <string>
#include <string_view>

namespace sightline::collector {

// The demangled name, or the input itself when it is not a mangled C++ name.
std::string demangleKernelName(std::string_view mangled);

// The bare function name of a demangled (or plain) name.
std::string shortKernelName(std::string_view demangled);

} // namespace sightline::collector
