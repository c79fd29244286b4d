// exportSqlite: creates the nsys tables in a temporary file, fills them in one transaction with
// prepared statements (journal and fsync off: the file is renamed into place only once it is
// complete, so a crash never leaves a half-written database under the target name).
#include "model/export/output_file.h"
#include "model/export/sqlite_tables.h"

#include <new>

namespace sightline {
namespace sqlite_export {

int64_t ExportStrings::idOf(std::string_view text)
{
    if (text.empty()) return 0; // StringIds 0, as in every StringTable
    if (auto it = m_extraIds.find(text); it != m_extraIds.end()) return it->second;
    const int64_t id = int64_t(m_strings.size() + m_extra.size());
    const std::string& stored = m_extra.emplace_back(text);
    m_extraIds.emplace(stored, id);
    return id;
}

void ExportStrings::write(SqliteDatabase& db) const
{
    SqliteInsert rows(db, nsys::kStringIds);
    for (uint32_t i = 0; i < m_strings.size(); ++i)
        rows.integer(i).text(m_strings[StringId(i)]).insertRow();
    int64_t id = int64_t(m_strings.size());
    for (const std::string& text : m_extra)
        rows.integer(id++).text(text).insertRow();
}

namespace {

void createTables(SqliteDatabase& db, const std::vector<nsys::EnumTable>& enums)
{
    for (const nsys::TableSpec* table : nsys::dataTables())
        db.exec(nsys::createTableSql(*table));
    for (const nsys::EnumTable& table : enums)
        db.exec(nsys::createTableSql(nsys::enumTableSpec(table.tableName)));
}

void writeEnumTables(SqliteDatabase& db, const std::vector<nsys::EnumTable>& enums)
{
    for (const nsys::EnumTable& table : enums) {
        const nsys::TableSpec spec = nsys::enumTableSpec(table.tableName);
        SqliteInsert rows(db, spec);
        for (const nsys::EnumRow& row : table.rows)
            rows.integer(row.id).text(row.name).text(row.label).insertRow();
    }
}

} // namespace
} // namespace sqlite_export

Status exportSqlite(const Trace& trace, const std::string& path, const ExportOptions& options)
{
    using namespace sqlite_export;
    StagedFile staged;
    if (Status opened = staged.open(path, options.overwrite); !opened) return opened;
    try {
        SqliteDatabase db(staged.tempPath());
        // page_size must come before the first table; the rest trade durability for speed,
        // which is safe because the file only gets its final name once it is complete.
        db.exec("PRAGMA page_size = 65536; PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF;"
                "PRAGMA locking_mode = EXCLUSIVE; PRAGMA temp_store = MEMORY; PRAGMA cache_size = -65536;");
        db.exec("BEGIN");
        const std::vector<nsys::EnumTable> enums = nsys::enumTables();
        createTables(db, enums);
        writeEnumTables(db, enums);
        ExportStrings strings(trace.strings);
        writeEntityTables(db, trace, strings);
        writeMetadataTables(db, trace, options, path);
        writeEventTables(db, trace);
        writeCounterTables(db, trace);
        writeCpuTables(db, trace);
        strings.write(db);
        db.exec("COMMIT");
        db.close();
    } catch (const SqliteError& error) {
        return Status::failure("Cannot write '" + path + "': SQLite failed (" + error.what()
            + "); check the free disk space and the folder's permissions.");
    } catch (const std::bad_alloc&) {
        return Status::failure("Cannot write '" + path
            + "': out of memory while exporting; close other programs and try again.");
    } catch (const std::exception& error) {
        return Status::failure("Cannot write '" + path + "': the export failed (" + error.what()
            + "); please report this as a bug.");
    }
    return staged.commit();
}

} // namespace sightline
