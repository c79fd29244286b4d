// A thin RAII layer over the sqlite3 C API for the SQLite exporter: a connection and a prepared
// INSERT that is bound column by column, left to right, for each row. Every column of a row must
// be bound before insertRow() (a row that binds too few or too many columns is a programming
// error and throws), so no value leaks from one row into the next. SQLite failures throw
// SqliteError; the exporter turns them into one sentence naming the output file.
#pragma once

#include "model/nsys/sqlite_schema.h"

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

struct sqlite3;
struct sqlite3_stmt;

namespace sightline {

struct SqliteError : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

class SqliteDatabase
{
public:
    // Creates or opens the database file for writing.
    explicit SqliteDatabase(const std::string& path);
    SqliteDatabase(const SqliteDatabase&) = delete;
    SqliteDatabase& operator=(const SqliteDatabase&) = delete;
    ~SqliteDatabase();

    void exec(const std::string& sql);
    // Closes the connection, reporting a failure to finish writing the file.
    void close();
    sqlite3* handle() const { return m_db; }
    [[noreturn]] void fail(std::string_view what) const;

private:
    sqlite3* m_db = nullptr;
};

class SqliteInsert
{
public:
    SqliteInsert(SqliteDatabase& db, const nsys::TableSpec& table);
    SqliteInsert(const SqliteInsert&) = delete;
    SqliteInsert& operator=(const SqliteInsert&) = delete;
    ~SqliteInsert();

    SqliteInsert& integer(int64_t value);
    SqliteInsert& integerOrNull(std::optional<int64_t> value);
    SqliteInsert& real(double value);
    // The text must stay alive until insertRow() (it is bound without a copy). Text that is not
    // well-formed UTF-8 is written repaired (model/text/utf8_repair.h).
    SqliteInsert& text(std::string_view value);
    SqliteInsert& textOrNull(std::optional<std::string_view> value);
    SqliteInsert& null(int count = 1);

    void insertRow();

private:
    int nextColumn();

    SqliteDatabase& m_db;
    const nsys::TableSpec& m_table;
    sqlite3_stmt* m_statement = nullptr;
    int m_bound = 0;
};

} // namespace sightline
