// Reading SQLite files in tests through the sqlite3 C API: open read-only, run a query, get
// every row back as typed cells. A failing query throws, so the test reports the SQL error.
#pragma once

#include <cstdint>
#include <sqlite3.h>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

namespace sightline::test {

struct SqlCell
{
    int type = SQLITE_NULL;
    int64_t integer = 0;
    double real = 0;
    std::string text;
    bool isNull() const { return type == SQLITE_NULL; }
};
using SqlRow = std::vector<SqlCell>;

class SqliteFile
{
public:
    explicit SqliteFile(const std::string& path)
    {
        if (sqlite3_open_v2(path.c_str(), &m_db, SQLITE_OPEN_READONLY, nullptr) != SQLITE_OK)
            throw std::runtime_error("cannot open " + path);
    }
    SqliteFile(const SqliteFile&) = delete;
    SqliteFile& operator=(const SqliteFile&) = delete;
    ~SqliteFile() { sqlite3_close(m_db); }

    std::vector<SqlRow> rows(const std::string& sql) const
    {
        sqlite3_stmt* statement = nullptr;
        if (sqlite3_prepare_v2(m_db, sql.c_str(), -1, &statement, nullptr) != SQLITE_OK)
            throw std::runtime_error(std::string(sqlite3_errmsg(m_db)) + " in: " + sql);
        std::vector<SqlRow> result;
        int step = SQLITE_ROW;
        while ((step = sqlite3_step(statement)) == SQLITE_ROW) {
            SqlRow row(size_t(sqlite3_column_count(statement)));
            for (int c = 0; c < int(row.size()); ++c) {
                SqlCell& cell = row[size_t(c)];
                cell.type = sqlite3_column_type(statement, c);
                cell.integer = sqlite3_column_int64(statement, c);
                cell.real = sqlite3_column_double(statement, c);
                if (const unsigned char* text = sqlite3_column_text(statement, c))
                    cell.text.assign(
                        reinterpret_cast<const char*>(text), size_t(sqlite3_column_bytes(statement, c)));
            }
            result.push_back(std::move(row));
        }
        sqlite3_finalize(statement);
        if (step != SQLITE_DONE) throw std::runtime_error(std::string(sqlite3_errmsg(m_db)) + " in: " + sql);
        return result;
    }

    int64_t integer(const std::string& sql) const
    {
        const auto result = rows(sql);
        if (result.size() != 1 || result[0].empty())
            throw std::runtime_error("expected one value from: " + sql);
        return result[0][0].integer;
    }

    std::string text(const std::string& sql) const
    {
        const auto result = rows(sql);
        if (result.size() != 1 || result[0].empty())
            throw std::runtime_error("expected one value from: " + sql);
        return result[0][0].text;
    }

private:
    sqlite3* m_db = nullptr;
};

// A table's columns as (name, type, NOT NULL, place in the primary key), in order.
inline std::vector<std::tuple<std::string, std::string, int, int>> columnsOf(
    const SqliteFile& db, const std::string& table)
{
    std::vector<std::tuple<std::string, std::string, int, int>> columns;
    for (const SqlRow& r : db.rows("PRAGMA table_info(" + table + ")"))
        columns.emplace_back(r[1].text, r[2].text, int(r[3].integer), int(r[5].integer));
    return columns;
}

} // namespace sightline::test
