// importNsysSqlite and the importer's driver: layout checks, StringIds, progress and cancel.
#include "model/import/importers.h"
#include "model/import/nsys/nsys_importer.h"
#include "model/nsys/sqlite_schema.h"

#include <filesystem>
#include <new>

namespace sightline {
namespace nsys_import {
namespace {

constexpr const char* kEventTables[]
    = {nsys::table::kCudaRuntime, nsys::table::kCudaKernel, nsys::table::kCudaMemcpy,
        nsys::table::kCudaMemset, nsys::table::kCudaSynchronization, nsys::table::kNvtxEvents,
        nsys::table::kOsrtApi, nsys::table::kGpuMetrics, nsys::table::kCudaGpuMemoryUsageEvents,
        nsys::table::kCompositeEvents, nsys::table::kSamplingCallchains, nsys::table::kSchedEvents};

} // namespace

std::optional<Timestamp> timeIn(const SqliteRows& rows, int column)
{
    const std::optional<int64_t> value = rows.wholeNumber(column);
    if (!value || *value < 0 || *value >= kImportedTimeLimit) return std::nullopt;
    return *value;
}

Importer::Importer(std::string path, const SqliteSource& db, const ReadOptions& options, uint64_t fileSize)
    : m_path(std::move(path))
    , m_db(db)
    , m_options(options)
    , m_fileSize(fileSize)
{ }

Trace Importer::run()
{
    checkLayout();
    m_rowsTotal = 1 + uint64_t(m_db.approximateRows(nsys::table::kStringIds));
    for (const char* table : kEventTables)
        m_rowsTotal += uint64_t(m_db.approximateRows(table));

    readExportMetadata();
    readStrings();
    readCaptureMetadata();
    readSystemEnvironment();
    readSessionTimes();
    readProcesses();
    readThreadNames();

    readApiCalls();
    readKernels();
    readMemcpys();
    readMemsets();
    readSynchronization();
    readOsRuntime();
    readCpuProfile();
    readGpuMetrics();
    readNvtx(); // last: ranges without an end close at the end of everything else
    readMemoryUsage(); // after the events: the memory series ends where they do

    addProcessesAndThreads();
    readGpus();
    readContextsAndStreams();
    readDiagnostics();
    addImportDiagnostics();
    if (m_options.progress) m_options.progress(m_fileSize, m_fileSize);
    return m_builder.build(m_options.threads);
}

void Importer::checkLayout()
{
    bool anyEvents = false;
    for (const char* table : kEventTables)
        anyEvents = anyEvents || m_db.hasTable(table);
    if (!anyEvents && !m_db.hasTable(nsys::table::kStringIds))
        throw ImportError("Cannot import '" + m_path
            + "': it is an SQLite database but not an Nsight Systems export (it has none of the tables "
              "StringIds, CUPTI_ACTIVITY_KIND_*, NVTX_EVENTS or OSRT_API); export the report with "
              "'nsys export --type sqlite'.");
    const bool namesNeeded = m_db.approximateRows(nsys::table::kCudaRuntime) > 0
        || m_db.approximateRows(nsys::table::kCudaKernel) > 0
        || m_db.approximateRows(nsys::table::kOsrtApi) > 0;
    if (namesNeeded && !m_db.hasTable(nsys::table::kStringIds))
        throw ImportError("Cannot import '" + m_path
            + "': it has no StringIds table, so the names of its kernels and calls cannot be read; "
              "export the report again with 'nsys export --type sqlite'.");
}

SqliteRows Importer::select(const char* table, std::span<const Column> columns, std::string_view clause)
{
    std::string sql = "SELECT ";
    for (size_t i = 0; i < columns.size(); ++i) {
        if (i > 0) sql += ", ";
        if (m_db.hasColumn(table, columns[i].name)) {
            sql += quotedIdentifier(columns[i].name);
        } else if (columns[i].required) {
            throw ImportError("Cannot import '" + m_path + "': its table " + table + " has no column '"
                + columns[i].name + "', a layout Sightline does not know (export schema "
                + (m_schemaVersion.empty() ? std::string("unknown") : m_schemaVersion)
                + "); please report it together with the Nsight Systems version that wrote the file.");
        } else {
            sql += "NULL";
        }
    }
    sql += " FROM " + quotedIdentifier(table);
    sql += clause;
    return SqliteRows(m_db, sql);
}

void Importer::readStrings()
{
    if (!m_db.hasTable(nsys::table::kStringIds)) return;
    constexpr Column kColumns[] = {{"id", true}, {"value", true}};
    SqliteRows rows = select(nsys::table::kStringIds, kColumns);
    uint64_t rowsRead = 0;
    while (rows.next()) {
        tick();
        const int64_t id = rows.integer(0);
        const std::string_view text = rows.text(1);
        FileString entry {m_fileText.size(), uint32_t(text.size()), kNoString, true};
        m_fileText.append(text);
        // Ids are dense in real exports; the array grows with the rows read, never with how
        // large an id claims to be (ids that keep doubling would otherwise allocate gigabytes).
        if (id >= 0 && uint64_t(id) < 2 * ++rowsRead + (1u << 20)) {
            if (uint64_t(id) >= m_fileStrings.size()) m_fileStrings.resize(size_t(id) + 1);
            m_fileStrings[size_t(id)] = entry;
        } else {
            m_sparseFileStrings[id] = entry;
        }
    }
}

Importer::FileString* Importer::fileString(int64_t fileId)
{
    FileString* entry = nullptr;
    if (fileId >= 0 && uint64_t(fileId) < m_fileStrings.size()) {
        entry = &m_fileStrings[size_t(fileId)];
    } else if (const auto it = m_sparseFileStrings.find(fileId); it != m_sparseFileStrings.end()) {
        entry = &it->second;
    }
    return entry && entry->present ? entry : nullptr;
}

StringId Importer::stringOf(int64_t fileId)
{
    FileString* entry = fileString(fileId);
    if (!entry) {
        ++m_missingStrings;
        return StringId();
    }
    if (entry->interned == kNoString)
        entry->interned
            = m_builder.intern(std::string_view(m_fileText).substr(entry->offset, entry->length)).value;
    return StringId(entry->interned);
}

std::string_view Importer::textOf(int64_t fileId)
{
    const FileString* entry = fileString(fileId);
    return entry ? std::string_view(m_fileText).substr(entry->offset, entry->length) : std::string_view();
}

StringId Importer::optionalStringOf(const SqliteRows& rows, int column)
{
    return rows.isNull(column) ? StringId() : stringOf(rows.integer(column));
}

std::optional<Timestamp> Importer::rowTime(const SqliteRows& rows, int column, const char* table)
{
    const std::optional<Timestamp> time = timeIn(rows, column);
    if (!time) ++m_untimedRows[table];
    return time;
}

std::optional<TimeRange> Importer::rowInterval(
    const SqliteRows& rows, int startColumn, int endColumn, const char* table)
{
    const std::optional<Timestamp> start = timeIn(rows, startColumn), end = timeIn(rows, endColumn);
    if (!start || !end) {
        ++m_untimedRows[table];
        return std::nullopt;
    }
    if (*end < *start) ++m_reversedRows[table];
    return TimeRange {*start, std::max(*start, *end)};
}

void Importer::tick()
{
    if ((++m_rowsDone & 0x3FFF) != 0) return;
    if (m_options.cancel && m_options.cancel->load(std::memory_order_relaxed)) throw Cancelled {};
    if (m_options.progress)
        m_options.progress(
            std::min(m_fileSize, uint64_t(double(m_fileSize) * double(m_rowsDone) / double(m_rowsTotal))),
            m_fileSize);
}

void Importer::addImportDiagnostics()
{
    auto add = [&](Severity severity, std::string text) {
        m_builder.addDiagnostic({severity, "import", std::move(text)});
    };
    if (m_openRanges)
        add(Severity::Warning,
            std::to_string(m_openRanges)
                + " NVTX ranges without an end were closed at the end of the trace.");
    if (m_missingStrings)
        add(Severity::Warning,
            std::to_string(m_missingStrings)
                + " events name strings that are missing from the StringIds table; they are shown "
                  "without a name.");
    for (const auto& [table, count] : m_untimedRows)
        add(Severity::Warning,
            std::to_string(count) + " rows of " + table
                + " have a time that is not a whole number of nanoseconds from 0 to 2^62 (NULL, text, "
                  "a fraction, NaN, infinite, negative or far too large); they were skipped.");
    for (const auto& [table, count] : m_reversedRows)
        add(Severity::Warning,
            std::to_string(count) + " rows of " + table
                + " end before they start; they were imported as instants at their start.");
    auto listed = [](const std::map<int64_t, size_t>& counts) {
        std::string text;
        size_t total = 0;
        for (const auto& [value, count] : counts) {
            text += (text.empty() ? "" : ", ") + std::to_string(value) + " (" + std::to_string(count) + ")";
            total += count;
        }
        return std::pair(total, text);
    };
    if (const auto [total, text] = listed(m_skippedApiClasses); total)
        add(Severity::Info,
            "Skipped " + std::to_string(total)
                + " CUPTI_ACTIVITY_KIND_RUNTIME rows that are not CUDA runtime or driver calls "
                  "(eventClass: "
                + text + "; 67 are backtrace copies of calls already imported).");
    if (const auto [total, text] = listed(m_skippedNvtxTypes); total)
        add(Severity::Info,
            "Skipped " + std::to_string(total)
                + " NVTX_EVENTS rows of event types Sightline does not import (eventType: " + text + ").");
}

} // namespace nsys_import

Result<Trace> importNsysSqlite(const std::string& path, const ReadOptions& options)
{
    std::error_code ec;
    const uint64_t size = std::filesystem::file_size(path, ec);
    if (ec) return Result<Trace>::failure("Cannot open '" + path + "': " + ec.message() + ".");
    SqliteSource db;
    if (const Status opened = db.open(path); !opened)
        return Result<Trace>::failure("Cannot import '" + path + "': SQLite cannot read it (" + opened.error()
            + "); check that it is a complete Nsight Systems SQLite export.");
    try {
        nsys_import::Importer importer(path, db, options, ec ? 0 : size);
        return importer.run();
    } catch (const nsys_import::ImportError& e) {
        return Result<Trace>::failure(e.what());
    } catch (const nsys_import::Cancelled&) {
        return Result<Trace>::failure("Importing '" + path + "' was cancelled.");
    } catch (const SqliteReadError& e) {
        return Result<Trace>::failure("Cannot import '" + path + "': SQLite failed while reading it ("
            + e.what() + "); the file may be damaged or incomplete.");
    } catch (const std::bad_alloc&) {
        return Result<Trace>::failure(
            "Cannot import '" + path + "': out of memory; close other programs and try again.");
    }
}

} // namespace sightline
