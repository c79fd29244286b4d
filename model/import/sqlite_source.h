// Read-only access to an SQLite file for the importers: the connection (opened immutable, so a
// file on a read-only disk or without its journal opens, and nothing is ever written), the
// schema (tables and views, which read alike, and their columns, as sqlite_master and PRAGMA
// table_info list them), and a forward-only row cursor. SQLite failures throw SqliteReadError.
// A view runs a query stored in the file, which may make rows up or loop without end in a few
// bytes: the rows and the work of all statements together are bounded by the file's size, far
// above what reading a real export takes (each table a few times over).
#pragma once

#include "model/common/result.h"

#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

struct sqlite3;
struct sqlite3_stmt;

namespace sightline {

struct SqliteReadError : std::runtime_error
{
    using std::runtime_error::runtime_error;
};

class SqliteSource
{
public:
    SqliteSource() = default;
    ~SqliteSource();
    SqliteSource(const SqliteSource&) = delete;
    SqliteSource& operator=(const SqliteSource&) = delete;

    // No text or blob value of an export comes near this (names, JSON arguments).
    static constexpr int kMaxValueBytes = 64 << 20;

    // Opens read-only and defensively; fails with SQLite's reason (the caller makes it a sentence).
    Status open(const std::string& path);
    sqlite3* handle() const { return m_db; }

    // Table name -> column names, for every table and every readable view in the file.
    const std::map<std::string, std::vector<std::string>>& tables() const { return m_tables; }
    bool hasTable(std::string_view name) const { return m_tables.count(std::string(name)) != 0; }
    bool hasColumn(std::string_view table, std::string_view column) const;
    // The largest rowid of a table (about its row count, found without a scan); 0 when empty
    // or a view.
    int64_t approximateRows(std::string_view table) const;

private:
    friend class SqliteRows;
    void loadSchema();
    static int spendWork(void* source); // SQLite's progress handler: non-zero interrupts

    sqlite3* m_db = nullptr;
    std::map<std::string, std::vector<std::string>> m_tables;
    mutable uint64_t m_rowsLeft = 0, m_workLeft = 0; // the budgets; work in handler calls
};

// An SQL identifier in double quotes, inner quotes doubled: the one way names read from a file
// go into a statement.
std::string quotedIdentifier(std::string_view identifier);

class SqliteRows
{
public:
    SqliteRows(const SqliteSource& db, const std::string& sql);
    ~SqliteRows();
    SqliteRows(const SqliteRows&) = delete;
    SqliteRows& operator=(const SqliteRows&) = delete;

    // Steps to the next row; false after the last one.
    bool next();

    bool isNull(int column) const;
    int64_t integer(int column) const;
    int64_t integerOr(int column, int64_t fallback) const
    {
        return isNull(column) ? fallback : integer(column);
    }
    double real(int column) const;
    // The value when it is a whole number: an integer, or a real without a fraction inside the
    // int64 range; nullopt for NULL, text, blobs, fractions and infinities (SQLite stores NaN
    // as NULL).
    std::optional<int64_t> wholeNumber(int column) const;
    std::string_view text(int column) const; // valid until next()

private:
    const SqliteSource& m_db;
    sqlite3_stmt* m_statement = nullptr;
};

} // namespace sightline
