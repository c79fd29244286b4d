// The facts the Analysis Summary lists about a report, as labelled text grouped in sections
// (Target, Session, Host, GPUs, Versions, Collection options, Report file, Events), plus its
// diagnostics. Facts the report does not record are left out rather than shown blank, so an
// imported trace lists what it has. Pure formatting over the Trace; the widget only shows it.
#pragma once

#include "model/trace/trace.h"

#include <QString>
#include <vector>

namespace sightline::views {

struct Fact
{
    QString label;
    QString value;
    std::vector<Fact> details; // shown under the fact (a GPU's properties)
};

struct FactSection
{
    QString title;
    std::vector<Fact> facts;
};

// The report file the trace was read from, when there is one.
struct ReportFile
{
    QString path;
    qint64 sizeBytes = -1; // -1: unknown
};

std::vector<FactSection> reportFacts(const Trace& trace, const ReportFile& file = {});

// "2024-05-01 12:34:56.789 UTC" for nanoseconds since the Unix epoch; empty for 0.
QString utcText(int64_t unixNs);
// The command line as a shell would take it back: arguments with spaces or quotes are quoted.
QString commandLineText(const std::vector<std::string>& arguments);
// "12,345,678"
QString groupedNumber(qint64 value);
// "Warning", "Error", "Info"
QString severityText(Severity severity);

} // namespace sightline::views
