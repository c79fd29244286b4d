// Internal to the SQLite exporter: the writers of each group of tables, shared by
// sqlite_export.cpp (the driver), sqlite_event_tables.cpp, sqlite_info_tables.cpp,
// sqlite_counter_tables.cpp and sqlite_cpu_tables.cpp.
#pragma once

#include "model/export/exporters.h"
#include "model/export/sqlite_db.h"

#include <deque>
#include <optional>
#include <string>
#include <unordered_map>

namespace sightline::sqlite_export {

// StringIds as written: the trace's string table verbatim (so every StringId in the trace is
// the same id in the file), followed by strings the export needs that the trace holds as plain
// text (thread names), with ids continuing after the trace's last one.
class ExportStrings
{
public:
    explicit ExportStrings(const StringTable& strings)
        : m_strings(strings)
    { }
    int64_t idOf(std::string_view text);
    void write(SqliteDatabase& db) const;

private:
    const StringTable& m_strings;
    std::deque<std::string> m_extra; // stable addresses for the map's keys
    std::unordered_map<std::string_view, int64_t> m_extraIds;
};

void writeEventTables(SqliteDatabase& db, const Trace& trace);
void writeCounterTables(SqliteDatabase& db, const Trace& trace);
void writeCpuTables(SqliteDatabase& db, const Trace& trace);
// The callchainId of the host call starting at `start` on `tid`: the index of its stack in
// cpu.eventStacks plus 1, or nullopt when it has none.
std::optional<int64_t> callchainIdOf(const CpuProfile& cpu, Tid tid, Timestamp start);
void writeEntityTables(SqliteDatabase& db, const Trace& trace, ExportStrings& strings);
void writeMetadataTables(
    SqliteDatabase& db, const Trace& trace, const ExportOptions& options, const std::string& outputPath);

} // namespace sightline::sqlite_export
