// importChromeTrace: walks a Chrome trace document ({"traceEvents": [...], ...} or a bare
// array) through JsonStream, element by element, feeding events to a KinetoCollector and the
// document's top-level facts (GPUs, versions, time base) to the report metadata.
#include "model/construct/trace_builder.h"
#include "model/import/chrome/kineto_collector.h"
#include "model/import/importers.h"
#include "model/import/json/json_number.h"
#include "model/import/json/json_stream.h"
#include "model/text/text_format.h"

#include <algorithm>
#include <new>

namespace sightline {
namespace {

using FlatObject = std::vector<std::pair<std::string, std::string>>;

// The scalar members of an object (strings, and numbers as their text); nested values skipped.
FlatObject readFlatObject(JsonCursor& c, std::string& scratch)
{
    FlatObject members;
    c.expect('{');
    std::string_view key;
    std::string keyScratch;
    bool first = true;
    while (c.nextKey(key, keyScratch, first)) {
        const char next = c.peek();
        if (next == '"') {
            std::string name(key);
            members.emplace_back(std::move(name), std::string(c.string(scratch)));
        } else if (next == '-' || (next >= '0' && next <= '9')) {
            members.emplace_back(std::string(key), std::string(c.number()));
        } else {
            c.skipValue();
        }
    }
    return members;
}

std::string valueOf(const FlatObject& object, std::string_view key)
{
    for (const auto& [k, v] : object)
        if (k == key) return v;
    return {};
}

int64_t integerOf(const FlatObject& object, std::string_view key)
{
    return numberTextToInteger(valueOf(object, key)).value_or(0);
}

class ChromeTraceReader
{
public:
    ChromeTraceReader(JsonStream& stream, TraceBuilder& builder, KinetoCollector& collector)
        : m_stream(stream)
        , m_builder(builder)
        , m_collector(collector)
    { }

    void readDocument()
    {
        const char top = m_stream.parse([](JsonCursor& c) {
            c.skipByteOrderMark();
            const char first = c.peek();
            if (first != '{' && first != '[') c.fail("a Chrome trace starts with '{' or '['");
            c.expect(first);
            return first;
        });
        m_topIsArray = top == '[';
        if (top == '[')
            readEvents();
        else
            readTopLevelMembers();
        if (!m_stream.atEnd())
            m_stream.parse([](JsonCursor& c) -> int {
                c.fail("there is more text after the end of the JSON document");
            });
    }

    // Why the document, valid JSON, is not a Chrome trace at all; "" when it is one (perhaps
    // with no events). A trace is an object with "traceEvents", or an array of event objects.
    std::string notATrace() const
    {
        if (m_topIsArray)
            return m_elements > 0 && m_eventObjects == 0 ? "is a JSON array, but of no event objects" : "";
        return m_sawTraceEvents ? "" : "is a JSON object without \"traceEvents\"";
    }

    // Diagnostics counting the events whose times were out of range (timeInRange); returns
    // how many it added.
    size_t addTimeDiagnostics() const
    {
        if (m_outOfRange)
            m_builder.addDiagnostic({Severity::Warning, "import",
                "Skipped " + std::to_string(m_outOfRange)
                    + " events whose time is negative or 146 years or more (2^62 ns), which no trace "
                      "holds."});
        if (m_negativeDurations)
            m_builder.addDiagnostic({Severity::Warning, "import",
                std::to_string(m_negativeDurations)
                    + " events have a negative duration; they were imported as instants at their start."});
        return size_t(m_outOfRange > 0) + size_t(m_negativeDurations > 0);
    }

private:
    void readEvents()
    {
        // The separator and the element are parsed apart, so that whitespace between them is
        // dropped as it is read instead of being kept for a retry of the element.
        bool first = true;
        while (m_stream.parse([&](JsonCursor& c) {
            bool next = first;
            if (!c.nextElement(next)) return false;
            first = next;
            return true;
        })) {
            m_stream.parse([&](JsonCursor& c) {
                if (c.peek() == '{') {
                    m_parser.read(c, m_event);
                    if (timeInRange(m_event)) m_collector.add(m_event);
                    ++m_eventObjects;
                } else {
                    c.skipValue();
                }
                ++m_elements;
            });
        }
    }

    void readTopLevelMembers()
    {
        bool first = true;
        for (;;) {
            const std::optional<std::string> key
                = m_stream.parse([&](JsonCursor& c) -> std::optional<std::string> {
                      bool next = first;
                      std::string_view name;
                      if (!c.nextKey(name, m_scratch, next)) return std::nullopt;
                      first = next;
                      return std::string(name);
                  });
            if (!key) return;
            if (*key == "traceEvents") {
                m_sawTraceEvents = true;
                m_stream.parse([](JsonCursor& c) {
                    if (c.peek() != '[') c.fail("\"traceEvents\" is not an array");
                    c.expect('[');
                });
                readEvents();
            } else {
                m_stream.parse([&](JsonCursor& c) { readTopLevelValue(*key, c); });
            }
        }
    }

    void readTopLevelValue(const std::string& key, JsonCursor& c)
    {
        ReportMetadata& m = m_builder.metadata();
        const char next = c.peek();
        const bool isNumber = next == '-' || (next >= '0' && next <= '9');
        const bool isString = next == '"';
        if (key == "schemaVersion" || key == "deviceProperties" || key == "baseTimeNanoseconds")
            m_collector.noteKinetoMarker();
        if (key == "deviceProperties" && next == '[') {
            std::vector<Gpu> gpus;
            bool first = true;
            c.expect('[');
            while (c.nextElement(first)) {
                if (c.peek() != '{') {
                    c.skipValue();
                    continue;
                }
                const FlatObject p = readFlatObject(c, m_scratch);
                Gpu gpu;
                gpu.device = DeviceId(uint32_t(integerOf(p, "id")));
                gpu.name = valueOf(p, "name");
                gpu.memoryBytes = uint64_t(integerOf(p, "totalGlobalMem"));
                gpu.computeMajor = uint32_t(integerOf(p, "computeMajor"));
                gpu.computeMinor = uint32_t(integerOf(p, "computeMinor"));
                gpu.smCount = uint32_t(integerOf(p, "numSms"));
                gpus.push_back(std::move(gpu));
            }
            for (Gpu& gpu : gpus)
                m_builder.addGpu(std::move(gpu));
        } else if (key == "otherData" && next == '{') {
            // Written by Sightline's JSON exporter.
            const FlatObject o = readFlatObject(c, m_scratch);
            m.toolVersion = valueOf(o, "toolVersion");
            m.producer = valueOf(o, "producer");
            m.hostname = valueOf(o, "hostname");
            m.osName = valueOf(o, "os");
            m.cpuModel = valueOf(o, "cpu");
            m.driverVersion = valueOf(o, "driverVersion");
            m.cudaVersion = valueOf(o, "cudaVersion");
            if (const std::string command = valueOf(o, "commandLine"); !command.empty())
                m.commandLine = {command};
            if (const std::string start = valueOf(o, "startTimeUtcNs"); !start.empty())
                m_collector.setTimeOrigin(numberTextToInteger(start).value_or(0));
        } else if (key == "distributedInfo" && next == '{') {
            const FlatObject o = readFlatObject(c, m_scratch);
            for (const char* name : {"rank", "world_size", "backend"})
                if (std::string value = valueOf(o, name); !value.empty()) m.options.emplace_back(name, value);
        } else if (key == "baseTimeNanoseconds" && isNumber) {
            m_collector.setTimeOrigin(numberTextToInteger(c.number()).value_or(0));
        } else if (key == "cuda_runtime_version" && isNumber) {
            m.cudaVersion = cudaVersionText(numberTextToInteger(c.number()).value_or(0));
        } else if (key == "cuda_driver_version" && isNumber) {
            m.options.emplace_back(
                "cuda_driver_version", cudaVersionText(numberTextToInteger(c.number()).value_or(0)));
        } else if (key == "cupti_version" && isNumber) {
            m.cuptiVersion = std::string(c.number());
        } else if ((key == "host_name" || key == "hostname") && isString) {
            m.hostname = std::string(c.string(m_scratch));
        } else if (key == "schemaVersion" && isNumber) {
            m.toolVersion = "PyTorch profiler (Kineto), trace schema " + std::string(c.number());
        } else if ((key == "traceName" || key == "trace_id") && isString) {
            m.options.emplace_back(key, std::string(c.string(m_scratch)));
        } else {
            c.skipValue();
        }
    }

    // Times no report holds (before 0, or an end at 2^62 ns or later, kImportedTimeLimit) are
    // skipped, so that rebasing them on the earliest event cannot stretch or overflow the
    // trace; durations below zero are counted (the collector reads them as 0). Metadata ("M")
    // events carry no time.
    bool timeInRange(const KinetoEvent& e)
    {
        if (e.phase == 'M' || !e.hasTs) return true;
        const int64_t duration = e.hasDur ? e.dur : 0;
        if (e.ts < 0 || e.ts >= kImportedTimeLimit || duration >= kImportedTimeLimit - e.ts) {
            ++m_outOfRange;
            return false;
        }
        m_negativeDurations += duration < 0;
        return true;
    }

    size_t m_outOfRange = 0, m_negativeDurations = 0;
    bool m_topIsArray = false;
    bool m_sawTraceEvents = false;
    uint64_t m_elements = 0, m_eventObjects = 0;
    JsonStream& m_stream;
    TraceBuilder& m_builder;
    KinetoCollector& m_collector;
    KinetoEventParser m_parser;
    KinetoEvent m_event;
    std::string m_scratch;
};

} // namespace

Result<Trace> importChromeTrace(const std::string& path, const ReadOptions& options)
{
    ByteSource source;
    if (const Status opened = source.open(path); !opened) return Result<Trace>::failure(opened.error());
    TraceBuilder builder;
    builder.metadata().producer = "chrome trace import";
    size_t closingDiagnostics = 0; // the cut and time warnings, which stay after what flows say
    KinetoCollector collector(builder);
    JsonStreamOptions streamOptions;
    // A small file needs no 4 MB buffer (the buffer grows if an element needs more).
    const uint64_t likelyBytes
        = source.compressed() ? source.fileSize() * 8 + (64 << 10) : source.fileSize() + 1;
    streamOptions.chunkBytes = size_t(std::clamp<uint64_t>(likelyBytes, 4096, streamOptions.chunkBytes));
    streamOptions.progress = options.progress;
    streamOptions.cancel = options.cancel;
    JsonStream stream(source, streamOptions);
    ChromeTraceReader reader(stream, builder, collector);
    try {
        reader.readDocument();
        if (const std::string why = reader.notATrace(); !why.empty())
            return Result<Trace>::failure("Cannot import '" + path + "': it " + why
                + ", so it is no Chrome trace (PyTorch profiler) file; open a trace or a report.");
        collector.finish();
    } catch (const JsonStreamError& error) {
        if (error.cancelled) return Result<Trace>::failure("Importing '" + path + "' was cancelled.");
        if (!error.truncated && source.provesCorrupt())
            return Result<Trace>::failure("Cannot import '" + path + "': " + source.error()
                + ", so the file is damaged; copy it again from where it was written.");
        const std::string what = std::string(source.compressed() ? "gzip-compressed " : "")
            + "Chrome trace JSON " + error.what();
        const size_t kept = collector.pendingEvents() + builder.eventCount();
        if (!error.truncated || kept == 0)
            return Result<Trace>::failure("Cannot import '" + path + "': the " + what
                + "; make sure the file is complete and is a Chrome trace (PyTorch profiler) file.");
        // A trace cut short (a job that crashed while writing it): keep every event before the cut.
        collector.finish();
        builder.addDiagnostic({Severity::Warning, "import",
            "The trace was cut short: the " + what + ". The " + std::to_string(builder.eventCount())
                + " events before the cut were imported; whatever followed is lost."});
        ++closingDiagnostics;
    } catch (const std::bad_alloc&) {
        return Result<Trace>::failure(
            "Cannot import '" + path + "': out of memory; close other programs and try again.");
    }
    closingDiagnostics += reader.addTimeDiagnostics();
    if (options.progress) options.progress(source.fileBytesRead(), source.fileSize());
    Trace trace = builder.build(options.threads);
    collector.linkFlows(trace, closingDiagnostics);
    return trace;
}

} // namespace sightline
