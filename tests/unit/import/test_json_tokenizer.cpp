// The streaming JSON reader under the Chrome trace importer: exact number reading, string
// escapes, and the element-retry buffering, which must give the same events whatever the
// chunk size (down to one byte) and whether the file is gzip or not.
#include "../../test_paths.h"
#include "../export/mini_json.h"
#include "../support/peak_memory.h"
#include "import_support.h"
#include "model/import/chrome/kineto_event.h"
#include "model/import/importers.h"
#include "model/import/json/json_number.h"
#include "model/import/json/json_stream.h"

#include <catch2/catch.hpp>
#include <random>
#include <sstream>
#include <zlib.h>

using namespace sightline;
using namespace sightline::test;

TEST_CASE("Microsecond decimals become nanoseconds exactly")
{
    CHECK(microsTextToNanos("1712195495519695.8") == 1712195495519695800);
    CHECK(microsTextToNanos("4354241114283.370") == 4354241114283370);
    CHECK(microsTextToNanos("1695835542514261") == 1695835542514261000);
    CHECK(microsTextToNanos("0.495") == 495);
    CHECK(microsTextToNanos("0.4955") == 496); // half a nanosecond rounds away from zero
    CHECK(microsTextToNanos("2.0004999") == 2000);
    CHECK(microsTextToNanos("-1.5") == -1500);
    CHECK(microsTextToNanos("1.5e3") == 1500000);
    CHECK(microsTextToNanos("1E-3") == 1);
    CHECK(microsTextToNanos("17121954955196958e-1") == 1712195495519695800);
    CHECK(microsTextToNanos("0") == 0);
    for (const char* bad : {"", "-", "abc", "1e", "1.2.3", "9e30", "--1"})
        CHECK(!microsTextToNanos(bad));

    CHECK(numberTextToInteger("7.9") == 7);
    CHECK(numberTextToInteger("-1") == -1);
    CHECK(numberTextToInteger("4294967295") == 4294967295);
    CHECK(numberTextToInteger("1e3") == 1000);
    CHECK(integerFromString("0x1f") == 31u);
    CHECK(integerFromString("123") == 123u);
    CHECK(!integerFromString("12a"));

    // Any nanosecond value written as Kineto writes it reads back unchanged; the tests' own
    // decimal reader (mini_json.h) agrees.
    std::mt19937_64 random(7);
    for (int i = 0; i < 20000; ++i) {
        const int64_t ns = int64_t(random() % 4'000'000'000'000'000'000ull);
        char text[40];
        std::snprintf(text, sizeof text, "%lld.%03lld", (long long)(ns / 1000), (long long)(ns % 1000));
        REQUIRE(microsTextToNanos(text) == ns);
        REQUIRE(microsTextToNanoseconds(text) == ns);
    }
}

TEST_CASE("JSON strings decode every escape")
{
    std::string scratch;
    const std::string text = R"("plain" "a\"b\\c\/d\b\f\n\r\t" "caf\u00e9" "\ud83d\ude00" "\ud800x" "\x")";
    std::string buffer = text;
    JsonCursor c(buffer.data(), buffer.data() + buffer.size());
    CHECK(c.string(scratch) == "plain");
    CHECK(c.string(scratch) == "a\"b\\c/d\b\f\n\r\t");
    CHECK(c.string(scratch) == "caf\xC3\xA9");
    CHECK(c.string(scratch) == "\xF0\x9F\x98\x80");
    CHECK(c.string(scratch) == "\xEF\xBF\xBDx"); // a lone surrogate becomes U+FFFD
    CHECK_THROWS_AS(c.string(scratch), JsonSyntaxError);
}

TEST_CASE("skipValue steps over nested values, strings with brackets included")
{
    std::string buffer = R"({"a": [1, {"b": "}]\"{"}, [[]], null, true, -2.5e3], "c": "x"} 42 )";
    JsonCursor c(buffer.data(), buffer.data() + buffer.size());
    c.skipValue();
    CHECK(c.number() == "42");
    std::string truncated = R"({"a": [1, "x)";
    JsonCursor t(truncated.data(), truncated.data() + truncated.size());
    CHECK_THROWS_AS(t.skipValue(), JsonNeedMore);
}

namespace {

// A Chrome trace with awkward content: long and escaped names, nested args to skip, string
// pids, numbers in every form, whitespace everywhere.
std::string awkwardDocument()
{
    std::ostringstream out;
    out << "{ \"schemaVersion\": 1, \"deviceProperties\": [{\"id\": 0, \"name\": \"GPU\"}],\n "
           "\"traceEvents\" : [\n";
    for (int i = 0; i < 120; ++i) {
        if (i) out << (i % 3 ? "," : " ,\n\t");
        out << "{\"ph\": \"X\", \"cat\": \"" << (i % 2 ? "kernel" : "cpu_op")
            << "\", \"name\": \"k\\u00e9rnel_" << i << std::string(size_t(i % 7) * 30, 'x')
            << "\\\"q\\\"\", \"pid\": " << (i % 4 ? "7" : "\"Spans\"") << ", \"tid\": " << -i
            << ", \"ts\": " << 1712195495519695 + i << "." << i % 10 << ", \"dur\": " << i
            << "e-1, \"args\": {\"skip\": {\"deep\": [1, [2, {\"x\": \"]\"}]]}, \"grid\": [" << i
            << ", 2, 3],"
            << " \"correlation\": " << 1000 + i << ", \"stream\": \"" << i << "\", \"device\": \"0x0\"}}";
    }
    out << "\n], \"displayTimeUnit\": \"ns\" }\n";
    return out.str();
}

std::string describe(const KinetoEvent& e)
{
    std::ostringstream out;
    out << e.phase << '|' << e.category << '|' << e.name << '|' << e.hasPid << ':' << e.pid << '|' << e.hasTid
        << ':' << e.tid << '|' << e.hasTs << ':' << e.ts << '|' << e.hasDur << ':' << e.dur << '|'
        << e.intMask << '|' << e.textMask << '|' << e.get(IntArg::Correlation) << '|' << e.get(IntArg::Stream)
        << '|' << e.grid[0] << e.grid[1] << e.grid[2];
    return out.str();
}

std::vector<std::string> readEvents(const std::filesystem::path& path, size_t chunk)
{
    ByteSource source;
    REQUIRE(source.open(path.string()).ok());
    JsonStreamOptions options;
    options.chunkBytes = chunk;
    JsonStream stream(source, options);
    KinetoEventParser parser;
    KinetoEvent event;
    std::vector<std::string> events;
    std::string scratch;
    stream.parse([](JsonCursor& c) { c.expect('{'); });
    bool firstKey = true;
    for (;;) {
        const auto key = stream.parse([&](JsonCursor& c) -> std::optional<std::string> {
            bool first = firstKey;
            std::string_view name;
            if (!c.nextKey(name, scratch, first)) return std::nullopt;
            firstKey = first;
            return std::string(name);
        });
        if (!key) break;
        if (*key != "traceEvents") {
            stream.parse([](JsonCursor& c) { c.skipValue(); });
            continue;
        }
        stream.parse([](JsonCursor& c) { c.expect('['); });
        bool firstEvent = true;
        while (stream.parse([&](JsonCursor& c) {
            bool first = firstEvent;
            if (!c.nextElement(first)) return false;
            parser.read(c, event);
            events.push_back(describe(event));
            firstEvent = first;
            return true;
        })) { }
    }
    CHECK(stream.atEnd());
    return events;
}

} // namespace

TEST_CASE("The streaming reader gives the same events for every chunk size, plain or gzip")
{
    const auto dir = scratchDir("json-chunks");
    const std::string document = awkwardDocument();
    writeFile(dir / "trace.json", document);
    writeGzipFile(dir / "trace.json.gz", document);
    // Two gzip members, as `cat a.gz b.gz` makes.
    writeGzipFile(dir / "first.gz", document.substr(0, 1000));
    writeGzipFile(dir / "second.gz", document.substr(1000));
    writeFile(
        dir / "members.json.gz", readWholeFileRaw(dir / "first.gz") + readWholeFileRaw(dir / "second.gz"));

    const std::vector<std::string> reference = readEvents(dir / "trace.json", size_t(1) << 20);
    REQUIRE(reference.size() == 120);
    CHECK_THAT(reference[1],
        Catch::StartsWith("X|kernel|k\xC3\xA9rnel_1" + std::string(30, 'x')
            + "\"q\"|1:7|1:-1|1:1712195495519696100|1:100|"));
    CHECK_THAT(reference[0], Catch::Contains("|0:0|")); // the "Spans" pid is not a number
    for (size_t chunk : {1, 2, 3, 5, 8, 13, 64, 333, 4096}) {
        INFO("chunk of " << chunk << " bytes");
        CHECK(readEvents(dir / "trace.json", chunk) == reference);
        CHECK(readEvents(dir / "trace.json.gz", chunk) == reference);
    }
    CHECK(readEvents(dir / "members.json.gz", 4096) == reference);
}

TEST_CASE("Broken JSON is reported with the byte where it breaks")
{
    const auto dir = scratchDir("json-broken");
    auto failure = [&](const std::string& name, const std::string& bytes, bool gzip) {
        const auto path = dir / name;
        gzip ? writeGzipFile(path, bytes) : writeFile(path, bytes);
        try {
            readEvents(path, 64);
        } catch (const JsonStreamError& error) {
            return std::string(error.what());
        }
        return std::string("no error");
    };
    const std::string document = awkwardDocument();
    CHECK_THAT(failure("cut.json", document.substr(0, 5000), false),
        Catch::StartsWith("ends unexpectedly at byte 5000"));
    std::string garbled = document;
    garbled[document.find("\"pid\":", 4000) + 5] = '@';
    CHECK_THAT(failure("garbled.json", garbled, false), Catch::StartsWith("is not valid JSON at byte"));

    writeGzipFile(dir / "whole.gz", document);
    std::string gz = readWholeFileRaw(dir / "whole.gz");
    writeFile(dir / "cut.json.gz", gz.substr(0, gz.size() / 2));
    CHECK_THAT(failure("empty.json", "", false), Catch::StartsWith("ends unexpectedly at byte 0"));
    try {
        readEvents(dir / "cut.json.gz", 64);
        FAIL("a truncated gzip file was read without an error");
    } catch (const JsonStreamError& error) {
        CHECK_THAT(error.what(), Catch::Contains("gzip data ends in the middle"));
    }
    gz[gz.size() / 2] = char(gz[gz.size() / 2] ^ 0x55);
    gz[gz.size() / 2 + 1] = char(gz[gz.size() / 2 + 1] ^ 0x55);
    writeFile(dir / "corrupt.json.gz", gz);
    CHECK_THROWS_AS(readEvents(dir / "corrupt.json.gz", 64), JsonStreamError);
}

TEST_CASE("Whitespace between elements is dropped as it is read, not kept in the buffer")
{
    // 256 MiB of spaces between two events, gzip-compressed to a few hundred kilobytes.
    const auto path = scratchDir("json-whitespace") / "spaces.json.gz";
    gzFile out = gzopen(path.c_str(), "wb6");
    REQUIRE(out != nullptr);
    const std::string head
        = R"({"traceEvents": [{"ph": "X", "cat": "cpu_op", "name": "a", "pid": 1, "tid": 1, "ts": 1, "dur": 2},)";
    const std::string spaces(size_t(1) << 20, ' ');
    const std::string tail
        = R"({"ph": "X", "cat": "cpu_op", "name": "b", "pid": 1, "tid": 1, "ts": 5, "dur": 2}]})";
    gzwrite(out, head.data(), unsigned(head.size()));
    for (int i = 0; i < 256; ++i)
        gzwrite(out, spaces.data(), unsigned(spaces.size()));
    gzwrite(out, tail.data(), unsigned(tail.size()));
    REQUIRE(gzclose(out) == Z_OK);

    const long before = peakResidentKilobytes();
    const Result<Trace> trace = importChromeTrace(path.string());
    REQUIRE(trace);
    CHECK(trace->eventCount() == 2);
    CHECK(peakResidentKilobytes() - before < 64 * 1024);
}
