// `sightline analyze`: the diagnosis of a report (model/analysis) as text, JSON or CSV: the
// verdict, where each GPU's time went, and the findings of each rule with their evidence.
// `--fail-on` turns findings into exit code 3, for CI gates.
#include "app/cli/analysis_output.h"
#include "app/cli/cli_args.h"
#include "app/cli/commands.h"
#include "app/cli/stats_output.h"
#include "model/analysis/rule_catalog.h"
#include "model/text/time_text.h"

#include <charconv>
#include <iostream>

namespace sightline::cli {
namespace {

constexpr int kFindingsExitCode = 3;

void printAnalyzeUsage(std::ostream& out)
{
    out << "Usage: sightline analyze [--rule NAME[,NAME...]|help] [--range START:END] [--format "
           "table|json|csv]\n"
           "                         [--fail-on warning|error] [thresholds] FILE\n"
           "\n"
           "Says what limits the program: the verdict for the report and for each top-level NVTX range,\n"
           "where each GPU's time went, and the findings of each rule with the events behind them.\n"
           "\n"
           "Options:\n"
           "  -r, --rule NAMES            comma-separated rules (default: all); 'help' lists them\n"
           "      --range S:E             only events that START in [S, E); times in ns or with a unit\n"
           "  -f, --format FORMAT         table (default), json or csv\n"
           "      --fail-on SEVERITY      exit with 3 when a finding is at least 'warning' or 'error'\n"
           "      --evidence N            evidence lines shown per finding in the table (default 5)\n"
           "      --gap-threshold T       gpu_gaps: idle gaps at least T long (default 500ms)\n"
           "      --util-threshold PCT    gpu_time_util: chunks busy less than PCT percent (default 50)\n"
           "      --chunks N              gpu_time_util: chunks per GPU (default 30)\n"
           "      --sync-threshold T      cuda_api_sync: calls at least T long (default 0: all)\n"
           "      --cpu-gap-threshold T   cpu_bound_ranges: GPU idle gaps at least T long (default 1ms)\n"
           "      --occupancy-threshold PCT  low_occupancy: below PCT percent (default 50)\n"
           "  -h, --help                  show this help\n";
}

void printRules(std::ostream& out)
{
    out << "Rules (those marked * are Nsight Systems' rules, with the same names):\n";
    for (const RuleInfo& rule : analysisRules())
        out << "  " << (rule.fromNsight ? "* " : "  ") << rule.name << " - " << rule.title << "\n      "
            << rule.description << "\n";
}

std::optional<double> parseNumber(const std::string& text)
{
    double value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < 0) return std::nullopt;
    return value;
}

// Reads the thresholds into `options`; the first bad one is a usage error's sentence.
std::optional<std::string> readThresholds(const Args& args, AnalysisOptions& options)
{
    for (auto [name, target] : {std::pair {"gap-threshold", &options.gapThreshold},
             std::pair {"sync-threshold", &options.syncThreshold},
             std::pair {"cpu-gap-threshold", &options.cpuGapThreshold}}) {
        if (const std::optional<std::string> text = args.value(name)) {
            const std::optional<Timestamp> value = parseTime(*text);
            if (!value || *value < 0)
                return "--" + std::string(name) + " '" + *text + "' is not a duration (e.g. 500ms).";
            *target = *value;
        }
    }
    for (auto [name, target] : {std::pair {"util-threshold", &options.utilizationThreshold},
             std::pair {"occupancy-threshold", &options.occupancyThreshold}}) {
        if (const std::optional<std::string> text = args.value(name)) {
            const std::optional<double> value = parseNumber(*text);
            if (!value || *value > 100)
                return "--" + std::string(name) + " '" + *text + "' is not a percentage (0 to 100).";
            *target = *value;
        }
    }
    for (auto [name, limit] : {std::pair {"chunks", 100000.0}, std::pair {"evidence", 1e9}}) {
        if (const std::optional<std::string> text = args.value(name)) {
            const std::optional<double> value = parseNumber(*text);
            if (!value || *value != double(int64_t(*value)) || *value > limit
                || (*value < 1 && std::string(name) == "chunks"))
                return "--" + std::string(name) + " '" + *text + "' is not a whole number in range.";
            if (std::string(name) == "chunks") options.utilizationChunks = int(*value);
        }
    }
    return std::nullopt;
}

// "cuda_api_sync,gpu_gaps" -> names; an unknown one is a usage error's sentence.
std::optional<std::string> readRules(const std::string& list, std::vector<std::string>& rules)
{
    size_t begin = 0;
    while (begin <= list.size()) {
        const size_t comma = std::min(list.find(',', begin), list.size());
        const std::string name = list.substr(begin, comma - begin);
        begin = comma + 1;
        if (name.empty()) continue;
        if (!findAnalysisRule(name)) {
            std::string known;
            for (const RuleInfo& rule : analysisRules())
                known += (known.empty() ? "" : ", ") + std::string(rule.name);
            return "unknown rule '" + name + "'; the rules are " + known + " ('--rule help' describes them).";
        }
        rules.push_back(name);
    }
    if (rules.empty()) return std::string("--rule needs at least one rule name.");
    return std::nullopt;
}

} // namespace

int runAnalyze(const std::vector<std::string>& arguments)
{
    static constexpr OptionSpec kOptions[] = {{"rule", "r", true}, {"format", "f", true}, {"range", "", true},
        {"fail-on", "", true}, {"evidence", "", true}, {"gap-threshold", "", true},
        {"util-threshold", "", true}, {"chunks", "", true}, {"sync-threshold", "", true},
        {"cpu-gap-threshold", "", true}, {"occupancy-threshold", "", true}, {"help", "h", false}};
    const Result<Args> scanned = Args::scan(arguments, kOptions, OptionsEnd::AtDoubleDash);
    if (!scanned) return usageError("analyze", scanned.error());
    const Args& args = scanned.value();
    if (args.flag("help")) {
        printAnalyzeUsage(std::cout);
        return 0;
    }
    AnalysisOptions options;
    if (const std::optional<std::string> rules = args.value("rule")) {
        if (*rules == "help") {
            printRules(std::cout);
            return 0;
        }
        if (const std::optional<std::string> error = readRules(*rules, options.rules))
            return usageError("analyze", *error);
    }
    if (const std::optional<std::string> error = readThresholds(args, options))
        return usageError("analyze", *error);
    const size_t evidenceShown = args.value("evidence") ? size_t(std::stoll(*args.value("evidence"))) : 5;

    StatsFormat format = StatsFormat::Table;
    if (const std::optional<std::string> text = args.value("format")) {
        const std::optional<StatsFormat> parsed = parseStatsFormat(*text);
        if (!parsed) return usageError("analyze", "unknown format '" + *text + "'; use table, json or csv.");
        format = *parsed;
    }
    std::optional<Severity> failOn;
    if (const std::optional<std::string> text = args.value("fail-on")) {
        if (*text == "warning")
            failOn = Severity::Warning;
        else if (*text == "error")
            failOn = Severity::Error;
        else
            return usageError("analyze", "--fail-on '" + *text + "' is not 'warning' or 'error'.");
    }
    if (const std::optional<std::string> text = args.value("range")) {
        options.range = parseTimeRange(*text);
        if (!options.range || options.range->empty())
            return usageError(
                "analyze", "--range '" + *text + "' is not START:END with END after START (e.g. 0:500ms).");
    }
    const std::vector<std::string>& files = args.positional();
    if (files.size() != 1) return usageError("analyze", "expected exactly one trace file.");

    DecodeSelection select;
    for (int k = 0; k < kTrackKindCount; ++k)
        if (!analysisReads(TrackKind(k))) select.trackKinds &= ~(1u << unsigned(k));
    const std::optional<Trace> trace = openTraceOrReport(files.front(), select);
    if (!trace) return 1;
    const AnalysisResult result = analyze(*trace, options);
    switch (format) {
    case StatsFormat::Table:
        writeAnalysisText(std::cout, *trace, result, evidenceShown);
        break;
    case StatsFormat::Json:
        writeAnalysisJson(std::cout, *trace, result);
        break;
    case StatsFormat::Csv:
        writeAnalysisCsv(std::cout, result);
        break;
    }
    std::cout.flush();
    if (!std::cout) return 1;
    if (failOn)
        for (const Finding& f : result.findings)
            if (f.severity >= *failOn) return kFindingsExitCode;
    return 0;
}

} // namespace sightline::cli
