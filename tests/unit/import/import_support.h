// Helpers for the importer tests: files in and out (plain and gzip), and a semantic comparison
// of two traces that does not depend on string or descriptor numbering: every event is written
// out as a line of text with its names resolved, and each track's lines are compared as a
// sorted list. Importers intern strings in their own order, so a field-by-field comparison of
// ids (trace_compare.h) cannot be used across an export and an import.
#pragma once

#include "model/trace/trace.h"

#include <filesystem>
#include <string>
#include <vector>

namespace sightline::test {

std::string readWholeFile(const std::filesystem::path& path); // inflated when gzip
std::string readWholeFileRaw(const std::filesystem::path& path); // the bytes as stored
void writeFile(const std::filesystem::path& path, const std::string& content);
void writeGzipFile(const std::filesystem::path& path, const std::string& content);
// A fresh SQLite file at `path` holding what `sql` creates (the test fails on an SQL error).
void makeDatabase(const std::filesystem::path& path, const std::string& sql);

// One line per event of a track, with names and domain names resolved, sorted.
std::vector<std::string> eventLines(const Trace& trace, const Track& track);

struct SemanticCompareOptions
{
    bool metadata = true;
    bool entities = true; // processes, threads, GPUs (but their memory clock), contexts, streams, domains
    bool diagnostics = true; // text and severity
};

// "" when both traces hold the same content, else a description of the first difference.
// Tracks without events are ignored; GPUs' memory clocks are not compared (the nsys schema
// has no column for them).
std::string semanticDifference(
    const Trace& expected, const Trace& actual, const SemanticCompareOptions& options = {});

// Files in the shared real-traces folder whose names end with one of `suffixes`, sorted; empty
// (after a WARN saying why) when the folder is absent or holds no such file.
std::vector<std::filesystem::path> sharedTraceFiles(const std::vector<std::string>& suffixes);

} // namespace sightline::test
