// `sightline export`: writes a trace file as Nsight Systems-compatible SQLite, Chrome trace JSON
// (Perfetto) or CSV, through the exporters of model/export.
#include "app/cli/cli_args.h"
#include "app/cli/commands.h"
#include "model/export/exporters.h"

#include <filesystem>
#include <iostream>
#include <optional>

namespace sightline::cli {
namespace {

enum class ExportType { Sqlite, Json, Csv };

void printExportUsage(std::ostream& out)
{
    out << "Usage: sightline export [--type sqlite|json|csv] [-o OUT] [--force] FILE\n"
           "\n"
           "Writes a trace file in another tool's format.\n"
           "\n"
           "Options:\n"
           "  -t, --type TYPE   sqlite (default): Nsight Systems' SQLite tables and columns, so SQL\n"
           "                    written for 'nsys export' files runs unchanged\n"
           "                    json: Chrome trace JSON for Perfetto UI (ui.perfetto.dev) and\n"
           "                    chrome://tracing\n"
           "                    csv: one CSV file per kind (cuda_api, nvtx, osrt, kernels, memory,\n"
           "                    sync) with the Events View's columns, as its Export CSV writes them\n"
           "  -o, --output OUT  the file to write (default: FILE's name with .sqlite or .json; an OUT\n"
           "                    without an extension gets one); for csv a folder (an existing one, or\n"
           "                    a path ending in '/') or a prefix giving OUT_kernels.csv, ...\n"
           "  -f, --force       replace output files that already exist\n"
           "  -h, --help        show this help\n";
}

std::optional<ExportType> parseExportType(std::string_view text)
{
    if (text == "sqlite") return ExportType::Sqlite;
    if (text == "json") return ExportType::Json;
    if (text == "csv") return ExportType::Csv;
    return std::nullopt;
}

std::string_view extensionOf(ExportType type)
{
    return type == ExportType::Sqlite ? ".sqlite" : type == ExportType::Json ? ".json" : "";
}

// The output path: -o as given (with the type's extension added when it has none), or the input
// file's name with its extension replaced.
std::string outputPath(ExportType type, const std::optional<std::string>& option, const std::string& input)
{
    namespace fs = std::filesystem;
    if (option) {
        if (type == ExportType::Csv || fs::path(*option).has_extension() || option->ends_with('/'))
            return *option;
        return *option + std::string(extensionOf(type));
    }
    return fs::path(input).replace_extension(extensionOf(type)).string();
}

} // namespace

int runExport(const std::vector<std::string>& arguments)
{
    static constexpr OptionSpec kOptions[]
        = {{"type", "t", true}, {"output", "o", true}, {"force", "f", false}, {"help", "h", false}};
    const Result<Args> scanned = Args::scan(arguments, kOptions, OptionsEnd::AtDoubleDash);
    if (!scanned) return usageError("export", scanned.error());
    const Args& args = scanned.value();
    if (args.flag("help")) {
        printExportUsage(std::cout);
        return 0;
    }
    const std::optional<std::string> typeOption = args.value("type");
    const std::optional<std::string> outputOption = args.value("output");
    const bool force = args.flag("force");
    const std::vector<std::string>& files = args.positional();
    if (files.size() != 1) return usageError("export", "expected exactly one trace file.");

    ExportType type = ExportType::Sqlite;
    if (typeOption) {
        const std::optional<ExportType> parsed = parseExportType(*typeOption);
        if (!parsed)
            return usageError(
                "export", "unknown export type '" + *typeOption + "'; use sqlite, json or csv.");
        type = *parsed;
    }
    if (outputOption && outputOption->empty()) return usageError("export", "-o needs a file name.");
    const std::string& input = files.front();
    const std::string output = outputPath(type, outputOption, input);
    std::error_code ec;
    if (type != ExportType::Csv && std::filesystem::equivalent(input, output, ec))
        return usageError(
            "export", "the output '" + output + "' is the input file itself; choose another name with -o.");

    const std::optional<Trace> trace = openTraceOrReport(input);
    if (!trace) return 1;

    ExportOptions options;
    options.overwrite = force;
    options.sourcePath = input;
    const Status exported = type == ExportType::Sqlite ? exportSqlite(*trace, output, options)
        : type == ExportType::Json                     ? exportChromeTrace(*trace, output, options)
                                                       : exportCsv(*trace, output, options);
    if (!exported) {
        std::cerr << "sightline export: " << exported.error() << '\n';
        return 1;
    }
    if (type == ExportType::Csv) {
        const std::vector<std::string> paths = csvExportPaths(output);
        std::cout << "Exported " << input << " (" << trace->eventCount() << " events) to " << paths.size()
                  << " CSV files:";
        for (const std::string& path : paths)
            std::cout << ' ' << path;
        std::cout << '\n';
    } else {
        std::cout << "Exported " << input << " (" << trace->eventCount() << " events) to " << output << '\n';
    }
    return 0;
}

} // namespace sightline::cli
