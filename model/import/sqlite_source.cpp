#include "model/import/sqlite_source.h"

#include <filesystem>
#include <sqlite3.h>

namespace sightline {
namespace {

// Budgets per byte of the file, beyond a fixed allowance for small files. A real export
// yields about one row per 60 bytes and takes under one virtual machine step per byte to read
// in full; SQLite calls the progress handler once per kStepsPerCall steps.
constexpr uint64_t kRowsPerByte = 1, kRowAllowance = uint64_t(1) << 16;
constexpr uint64_t kStepsPerByte = 64, kStepAllowance = uint64_t(1) << 24;
constexpr int kStepsPerCall = 4096;
constexpr const char* kOverBudget
    = "a view in it yields more rows, or takes more work, than a file of its size can hold";

// A file: URI for `path`, with the characters URIs reserve escaped.
std::string fileUri(const std::string& path)
{
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string uri = "file:";
    for (unsigned char c : path) {
        if (c == '%' || c == '?' || c == '#' || c < 0x20) {
            uri += '%';
            uri += kHex[c >> 4];
            uri += kHex[c & 0xF];
        } else {
            uri += char(c);
        }
    }
    return uri + "?immutable=1";
}

} // namespace

std::string quotedIdentifier(std::string_view identifier)
{
    std::string text = "\"";
    for (char c : identifier)
        text += c == '"' ? std::string("\"\"") : std::string(1, c);
    return text + "\"";
}

SqliteSource::~SqliteSource()
{
    if (m_db) sqlite3_close(m_db);
}

Status SqliteSource::open(const std::string& path)
{
    const int flags = SQLITE_OPEN_READONLY | SQLITE_OPEN_URI | SQLITE_OPEN_NOMUTEX;
    if (sqlite3_open_v2(fileUri(path).c_str(), &m_db, flags, nullptr) != SQLITE_OK)
        return Status::failure(m_db ? sqlite3_errmsg(m_db) : "out of memory");
    // The file may be hostile: its schema may not run functions or change the file, and no
    // value may be longer than any real export holds (a longer one is an error, not an
    // allocation).
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_DEFENSIVE, 1, nullptr);
    sqlite3_db_config(m_db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, nullptr);
    sqlite3_limit(m_db, SQLITE_LIMIT_LENGTH, kMaxValueBytes);
    // Every table is scanned once, front to back: a small page cache does, and no memory map
    // (mapped pages would count against the import's resident memory for nothing).
    sqlite3_exec(m_db, "PRAGMA cache_size = -8192; PRAGMA mmap_size = 0;", nullptr, nullptr, nullptr);
    std::error_code ec;
    const uint64_t bytes = std::filesystem::file_size(path, ec);
    m_rowsLeft = kRowAllowance + kRowsPerByte * (ec ? 0 : bytes);
    m_workLeft = (kStepAllowance + kStepsPerByte * (ec ? 0 : bytes)) / kStepsPerCall;
    sqlite3_progress_handler(m_db, kStepsPerCall, &SqliteSource::spendWork, this);
    try {
        loadSchema();
    } catch (const SqliteReadError& e) {
        return Status::failure(e.what());
    }
    return {};
}

void SqliteSource::loadSchema()
{
    std::vector<std::pair<std::string, bool>> names; // (name, is a view)
    {
        SqliteRows rows(
            *this, "SELECT name, type = 'view' FROM sqlite_master WHERE type IN ('table', 'view')");
        while (rows.next())
            names.emplace_back(rows.text(0), rows.integer(1) != 0);
    }
    for (const auto& [name, isView] : names) {
        std::vector<std::string> columns;
        try {
            SqliteRows rows(*this, "PRAGMA table_info(" + quotedIdentifier(name) + ")");
            while (rows.next())
                columns.emplace_back(rows.text(1));
        } catch (const SqliteReadError&) {
            // A view over a table that is missing, or that uses a function a file may not call,
            // cannot be read; it counts as absent. A table that cannot be described is damage.
            if (!isView) throw;
            continue;
        }
        m_tables[name] = std::move(columns);
    }
}

int SqliteSource::spendWork(void* source)
{
    uint64_t& left = static_cast<SqliteSource*>(source)->m_workLeft;
    if (left == 0) return 1;
    --left;
    return 0;
}

bool SqliteSource::hasColumn(std::string_view table, std::string_view column) const
{
    const auto it = m_tables.find(std::string(table));
    if (it == m_tables.end()) return false;
    for (const std::string& c : it->second)
        if (c == column) return true;
    return false;
}

int64_t SqliteSource::approximateRows(std::string_view table) const
{
    if (!hasTable(table)) return 0;
    try {
        SqliteRows rows(*this, "SELECT max(rowid) FROM " + quotedIdentifier(table));
        return rows.next() ? rows.integerOr(0, 0) : 0;
    } catch (const SqliteReadError&) {
        return 0; // a view or a WITHOUT ROWID table: no estimate
    }
}

SqliteRows::SqliteRows(const SqliteSource& db, const std::string& sql)
    : m_db(db)
{
    if (sqlite3_prepare_v2(db.handle(), sql.c_str(), int(sql.size()), &m_statement, nullptr) != SQLITE_OK)
        throw SqliteReadError(sqlite3_errmsg(db.handle()));
}

SqliteRows::~SqliteRows()
{
    sqlite3_finalize(m_statement);
}

bool SqliteRows::next()
{
    const int status = sqlite3_step(m_statement);
    if (status == SQLITE_ROW) {
        if (m_db.m_rowsLeft == 0) throw SqliteReadError(kOverBudget);
        --m_db.m_rowsLeft;
        return true;
    }
    if (status == SQLITE_DONE) return false;
    if (status == SQLITE_INTERRUPT && m_db.m_workLeft == 0) throw SqliteReadError(kOverBudget);
    throw SqliteReadError(sqlite3_errmsg(m_db.handle()));
}

bool SqliteRows::isNull(int column) const
{
    return sqlite3_column_type(m_statement, column) == SQLITE_NULL;
}

int64_t SqliteRows::integer(int column) const
{
    return sqlite3_column_int64(m_statement, column);
}

double SqliteRows::real(int column) const
{
    return sqlite3_column_double(m_statement, column);
}

std::optional<int64_t> SqliteRows::wholeNumber(int column) const
{
    switch (sqlite3_column_type(m_statement, column)) {
    case SQLITE_INTEGER:
        return sqlite3_column_int64(m_statement, column);
    case SQLITE_FLOAT: {
        // -2^63 <= value < 2^63: both bounds are exact doubles; NaN and infinities fail.
        const double value = sqlite3_column_double(m_statement, column);
        if (!(value >= -0x1p63 && value < 0x1p63) || value != double(int64_t(value))) return std::nullopt;
        return int64_t(value);
    }
    default:
        return std::nullopt;
    }
}

std::string_view SqliteRows::text(int column) const
{
    const unsigned char* text = sqlite3_column_text(m_statement, column);
    if (!text) return {};
    return {reinterpret_cast<const char*>(text), size_t(sqlite3_column_bytes(m_statement, column))};
}

} // namespace sightline
