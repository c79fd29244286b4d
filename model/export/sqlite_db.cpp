#include "model/export/sqlite_db.h"

#include "model/text/utf8_repair.h"

#include <sqlite3.h>

namespace sightline {

SqliteDatabase::SqliteDatabase(const std::string& path)
{
    const int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(path.c_str(), &m_db, flags, nullptr) != SQLITE_OK) fail("cannot create the database");
}

SqliteDatabase::~SqliteDatabase()
{
    if (m_db) sqlite3_close_v2(m_db);
}

void SqliteDatabase::exec(const std::string& sql)
{
    char* message = nullptr;
    if (sqlite3_exec(m_db, sql.c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
        std::string text = message ? message : "unknown error";
        sqlite3_free(message);
        throw SqliteError(text);
    }
}

void SqliteDatabase::close()
{
    if (!m_db) return;
    const int result = sqlite3_close(m_db);
    if (result != SQLITE_OK) fail("cannot finish the database");
    m_db = nullptr;
}

void SqliteDatabase::fail(std::string_view what) const
{
    std::string text(what);
    if (m_db) text += std::string(" (") + sqlite3_errmsg(m_db) + ")";
    throw SqliteError(text);
}

SqliteInsert::SqliteInsert(SqliteDatabase& db, const nsys::TableSpec& table)
    : m_db(db)
    , m_table(table)
{
    const std::string sql = nsys::insertSql(table);
    if (sqlite3_prepare_v3(
            db.handle(), sql.c_str(), int(sql.size() + 1), SQLITE_PREPARE_PERSISTENT, &m_statement, nullptr)
        != SQLITE_OK)
        db.fail("cannot prepare the " + std::string(table.name) + " rows");
}

SqliteInsert::~SqliteInsert()
{
    sqlite3_finalize(m_statement);
}

int SqliteInsert::nextColumn()
{
    if (m_bound >= int(m_table.columns.size()))
        throw std::logic_error("too many values for a row of " + std::string(m_table.name));
    return ++m_bound;
}

SqliteInsert& SqliteInsert::integer(int64_t value)
{
    sqlite3_bind_int64(m_statement, nextColumn(), value);
    return *this;
}

SqliteInsert& SqliteInsert::integerOrNull(std::optional<int64_t> value)
{
    return value ? integer(*value) : null();
}

SqliteInsert& SqliteInsert::real(double value)
{
    sqlite3_bind_double(m_statement, nextColumn(), value);
    return *this;
}

SqliteInsert& SqliteInsert::text(std::string_view value)
{
    // TEXT must be UTF-8 for SQLite's functions and every reader; text that is not is repaired
    // into a copy SQLite keeps (SQLITE_TRANSIENT), the rest is bound in place.
    if (!isValidUtf8(value)) {
        const std::string repaired = repairUtf8(value);
        sqlite3_bind_text64(
            m_statement, nextColumn(), repaired.data(), repaired.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
        return *this;
    }
    // A null pointer would bind SQL NULL; an empty text must stay an empty text.
    const char* data = value.data() ? value.data() : "";
    sqlite3_bind_text64(m_statement, nextColumn(), data, value.size(), SQLITE_STATIC, SQLITE_UTF8);
    return *this;
}

SqliteInsert& SqliteInsert::textOrNull(std::optional<std::string_view> value)
{
    return value ? text(*value) : null();
}

SqliteInsert& SqliteInsert::null(int count)
{
    for (int i = 0; i < count; ++i)
        sqlite3_bind_null(m_statement, nextColumn());
    return *this;
}

void SqliteInsert::insertRow()
{
    if (m_bound != int(m_table.columns.size()))
        throw std::logic_error("a row of " + std::string(m_table.name) + " has " + std::to_string(m_bound)
            + " values for " + std::to_string(m_table.columns.size()) + " columns");
    m_bound = 0;
    const int result = sqlite3_step(m_statement);
    sqlite3_reset(m_statement);
    if (result != SQLITE_DONE) m_db.fail("cannot write a row of " + std::string(m_table.name));
}

} // namespace sightline
