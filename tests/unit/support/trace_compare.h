// Field-by-field comparison of two traces' content (indexes excluded), for round-trip tests.
#pragma once

#include "model/trace/trace.h"

#include <string>

namespace sightline::test {

// "" when equal, else a description of the first difference found.
std::string firstDifference(const Trace& a, const Trace& b);

} // namespace sightline::test
