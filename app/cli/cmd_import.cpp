// `sightline import IN [-o OUT.rep] [--force]`: reads any trace the model opens (chosen by
// content, see model/import/open_trace.h) and writes it as a .rep report.
#include "app/cli/cli_args.h"
#include "app/cli/commands.h"
#include "model/import/open_trace.h"

#include <filesystem>
#include <iostream>
#include <optional>
#include <unistd.h>

namespace sightline::cli {
namespace {

void printImportUsage(std::ostream& out)
{
    out << "Usage: sightline import [-o OUT.rep] [--force] FILE\n"
           "\n"
           "Converts a trace recorded by another tool into a Sightline report (.rep):\n"
           "  - an Nsight Systems SQLite export ('nsys export --type sqlite report.nsys-rep');\n"
           "  - a PyTorch profiler (Kineto) or other Chrome trace JSON file, plain or gzip (.json, "
           ".json.gz).\n"
           "The kind is recognised from the file's content, whatever its extension. 'sightline info',\n"
           "'stats' and 'export' also read these files directly; import once to open them faster.\n"
           "\n"
           "Options:\n"
           "  -o, --output OUT  the report to write (default: FILE's name with .rep instead of\n"
           "                    .sqlite, .json or .json.gz)\n"
           "  -f, --force       replace OUT if it already exists\n"
           "  -h, --help        show this help\n";
}

std::string defaultOutput(const std::string& input)
{
    std::string base = input;
    for (std::string_view suffix : {".gz", ".json", ".sqlite", ".sqlite3", ".db"})
        if (base.size() > suffix.size() && base.ends_with(suffix)) base.resize(base.size() - suffix.size());
    if (base.ends_with(".pt.trace")) base.resize(base.size() - 9);
    return base + ".rep";
}

// A one-line percentage on a terminal; nothing when stderr is redirected.
ReadOptions progressOptions()
{
    ReadOptions options;
    if (!isatty(STDERR_FILENO)) return options;
    options.progress = [last = -1](uint64_t done, uint64_t total) mutable {
        const int percent = total ? int(100 * done / total) : 0;
        if (percent == last) return;
        last = percent;
        std::cerr << "\rImporting... " << percent << "%" << std::flush;
    };
    return options;
}

} // namespace

int runImport(const std::vector<std::string>& arguments)
{
    static constexpr OptionSpec kOptions[]
        = {{"output", "o", true}, {"force", "f", false}, {"help", "h", false}};
    const Result<Args> scanned = Args::scan(arguments, kOptions, OptionsEnd::AtDoubleDash);
    if (!scanned) return usageError("import", scanned.error());
    const Args& args = scanned.value();
    if (args.flag("help")) {
        printImportUsage(std::cout);
        return 0;
    }
    const std::optional<std::string> outputOption = args.value("output");
    const bool force = args.flag("force");
    const std::vector<std::string>& files = args.positional();
    if (files.size() != 1) return usageError("import", "expected exactly one file to import.");
    if (outputOption && outputOption->empty()) return usageError("import", "-o needs a file name.");
    const std::string& input = files.front();
    const std::string output = outputOption ? *outputOption : defaultOutput(input);

    std::error_code ec;
    if (std::filesystem::equivalent(input, output, ec))
        return usageError(
            "import", "the output '" + output + "' is the input file itself; choose another name with -o.");
    if (!force && std::filesystem::exists(output, ec)) {
        std::cerr << "sightline import: '" << output << "' already exists; add --force to replace it.\n";
        return 1;
    }

    const ReadOptions options = progressOptions();
    Result<Trace> trace = openTrace(input, options);
    if (options.progress) std::cerr << '\r' << std::string(20, ' ') << '\r' << std::flush;
    if (!trace) {
        std::cerr << "sightline import: " << trace.error() << '\n';
        return 1;
    }
    if (const Status written = writeReport(trace.value(), output); !written) {
        std::cerr << "sightline import: " << written.error() << '\n';
        return 1;
    }
    std::cout << "Imported " << input << " (" << trace->eventCount() << " events) to " << output << '\n';
    for (const Diagnostic& d : trace->diagnostics)
        if (d.source == "import") std::cout << "  note: " << d.text << '\n';
    return 0;
}

} // namespace sightline::cli
