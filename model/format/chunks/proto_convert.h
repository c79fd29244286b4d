// Conversions between the model's metadata, entity and descriptor types and their protobuf
// messages (report.proto). Event columns are converted in report_writer.cpp / report_reader.cpp,
// where their speed matters.
#pragma once

#include "model/format/container.h"
#include "model/format/report.pb.h"
#include "model/trace/trace.h"

namespace sightline::rep {

void toProto(const ReportMetadata& metadata, Header& out);
ReportMetadata fromProto(const Header& header);

void toProto(const Trace& trace, Entities& out);
void fromProto(const Entities& entities, Trace& trace);

void toProto(const Trace& trace, Descriptors& out);
// False when an increment starts past the end of its table (the file is damaged); the tables
// hold what the other increments added.
bool fromProto(const Descriptors& descriptors, Trace& trace);

void toProto(const std::vector<sightline::Diagnostic>& diagnostics, Diagnostics& out);
void fromProto(const Diagnostics& diagnostics, std::vector<sightline::Diagnostic>& out);

} // namespace sightline::rep
