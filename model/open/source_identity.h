// Which recording a trace comes from. A report's metadata says where and when it was recorded
// (host, wall-clock start, which stands for the boot too), and a viewer opens it from a path;
// together they name its source, so that GPU 0 and pid 1234 of two reports (two nodes of one
// job, two runs on one machine) never stand for the same thing where two traces meet: a
// timeline replacing its trace keeps the rows of equal TrackKeys. The identity is derived
// whenever a trace is opened and never stored, so a report's bytes do not depend on it; the
// overview, the events and any range of one report, opened from one path, share it.
#pragma once

#include "model/core/ids.h"
#include "model/core/metadata.h"

#include <string_view>

namespace sightline {

struct Trace;

// Never 0 (the "none named" of SourceId). The path is made absolute and canonical first, so
// two spellings of one file name one source.
SourceId sourceIdentity(std::string_view reportPath, const ReportMetadata& metadata);

// Names `trace`'s source from its path and its own metadata (Trace::setSource).
void identifySource(Trace& trace, std::string_view reportPath);

} // namespace sightline
