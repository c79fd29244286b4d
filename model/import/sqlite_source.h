// Read-only access to an SQLite file for the importers: the connection (opened immutable, so a
// file on a read-only disk or without its journal opens, and nothing is ever written), the
// schema (tables and their columns, as sqlite_master and PRAGMA table_info list them), and a
// forward-only row cursor. SQLite failures throw SqliteReadError.
#pragma once

#include "model/common/result.h"

#include <cstdint>
#include <map>
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

    // Table name -> column names, for every table in the file.
    const std::map<std::string, std::vector<std::string>>& tables() const { return m_tables; }
    bool hasTable(std::string_view name) const { return m_tables.count(std::string(name)) != 0; }
    bool hasColumn(std::string_view table, std::string_view column) const;
    // The largest rowid of a table (about its row count, found without a scan); 0 when empty.
    int64_t approximateRows(std::string_view table) const;

private:
    void loadSchema();

    sqlite3* m_db = nullptr;
    std::map<std::string, std::vector<std::string>> m_tables;
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
    std::string_view text(int column) const; // valid until next()

private:
    const SqliteSource& m_db;
    sqlite3_stmt* m_statement = nullptr;
};

} // namespace sightline
