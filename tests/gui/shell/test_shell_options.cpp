// sightline-ui's command line: files, --screenshot with --size / --range / --view, and the
// one-sentence errors for everything malformed.
#include "app/ui/shell/shell_options.h"

#include <catch2/catch.hpp>

using sightline::TimeRange;
using sightline::ui::parseShellOptions;
using sightline::ui::ScreenshotView;

namespace {

QStringList line(std::initializer_list<const char*> words)
{
    QStringList list {QStringLiteral("sightline-ui")};
    for (const char* word : words)
        list.append(QString::fromUtf8(word));
    return list;
}

} // namespace

TEST_CASE("plain arguments are the reports to open, in order")
{
    const auto parsed = parseShellOptions(line({"a.rep", "dir/b.sqlite", "c.json"}));
    REQUIRE(parsed);
    const auto& options = parsed.value();
    CHECK(options.files
        == QStringList {QStringLiteral("a.rep"), QStringLiteral("dir/b.sqlite"), QStringLiteral("c.json")});
    CHECK_FALSE(options.screenshot.has_value());
    CHECK_FALSE(options.showHelp);
}

TEST_CASE("the screenshot option takes its output, size, range with units, and the one report")
{
    const auto parsed = parseShellOptions(
        line({"--screenshot", "out.png", "--size", "800x600", "--range", "1ms:2.5ms", "r.rep"}));
    REQUIRE(parsed);
    const auto& options = parsed.value();
    REQUIRE(options.screenshot.has_value());
    CHECK(options.screenshot->outputPath == QStringLiteral("out.png"));
    CHECK(options.screenshot->reportPath == QStringLiteral("r.rep"));
    CHECK(options.screenshot->size == QSize(800, 600));
    REQUIRE(options.screenshot->range.has_value());
    CHECK(*options.screenshot->range == TimeRange {1'000'000, 2'500'000});
    CHECK(options.screenshot->view == ScreenshotView::Timeline);
    CHECK(options.files.isEmpty()); // the report is the screenshot's, not a tab's
}

TEST_CASE(
    "the screenshot options accept the --name=value spelling and seconds, microseconds and plain nanoseconds")
{
    auto options
        = parseShellOptions(line({"--screenshot=o.png", "--range=1.5s:2s", "--view=timeline", "r.rep"}));
    REQUIRE(options);
    CHECK(*options->screenshot->range == TimeRange {1'500'000'000, 2'000'000'000});
    options = parseShellOptions(line({"--screenshot", "o.png", "--range", "250us:1200000", "r.rep"}));
    REQUIRE(options);
    CHECK(*options->screenshot->range == TimeRange {250'000, 1'200'000});
}

TEST_CASE("the screenshot's --view names the timeline, the Events View or the Analysis Summary")
{
    const std::pair<const char*, ScreenshotView> names[] = {{"timeline", ScreenshotView::Timeline},
        {"events", ScreenshotView::Events}, {"summary", ScreenshotView::Summary}};
    for (const auto& [name, view] : names) {
        const auto options = parseShellOptions(line({"--screenshot", "o.png", "--view", name, "r.rep"}));
        INFO(name);
        REQUIRE(options);
        CHECK(options->screenshot->view == view);
    }
}

TEST_CASE("malformed screenshot options give one sentence naming the bad value")
{
    struct Case
    {
        std::initializer_list<const char*> words;
        const char* mentions;
    };
    const Case cases[] = {
        {{"--screenshot", "o.png", "--size", "10x10", "r.rep"}, "10x10"},
        {{"--screenshot", "o.png", "--size", "wide", "r.rep"}, "wide"},
        {{"--screenshot", "o.png", "--range", "5ms:3ms", "r.rep"}, "5ms:3ms"},
        {{"--screenshot", "o.png", "--range", "2ms:2ms", "r.rep"}, "2ms:2ms"},
        {{"--screenshot", "o.png", "--range", "1parsec:2ms", "r.rep"}, "1parsec:2ms"},
        {{"--screenshot", "o.png", "--view", "charts", "r.rep"}, "charts"},
        {{"--screenshot", "o.png", "a.rep", "b.rep"}, "exactly one"},
        {{"--screenshot", "o.png"}, "exactly one"},
        {{"--range", "1ms:2ms", "r.rep"}, "--screenshot"},
        {{"--size", "800x600"}, "--screenshot"},
        {{"--frobnicate", "r.rep"}, "frobnicate"},
    };
    for (const Case& c : cases) {
        const auto parsed = parseShellOptions(line(c.words));
        REQUIRE_FALSE(parsed);
        INFO(parsed.error());
        CHECK(parsed.error().find(c.mentions) != std::string::npos);
        CHECK(parsed.error().find('\n') == std::string::npos);
    }
}

TEST_CASE("a plain number is nanoseconds, so 250us:1200 ends before it starts")
{
    const auto parsed = parseShellOptions(line({"--screenshot", "o.png", "--range", "250us:1200", "r.rep"}));
    REQUIRE_FALSE(parsed);
    CHECK(parsed.error().find("250us:1200") != std::string::npos);
}

TEST_CASE("help and version options are recognised")
{
    CHECK(parseShellOptions(line({"--help"}))->showHelp);
    CHECK(parseShellOptions(line({"-h"}))->showHelp);
    CHECK(parseShellOptions(line({"--version"}))->showVersion);
    CHECK(parseShellOptions(line({"--help"}))->helpText.contains(QStringLiteral("--screenshot")));
}

TEST_CASE("Qt's own options are left to QApplication and not taken for reports")
{
    const auto options
        = parseShellOptions(line({"-platform", "offscreen", "-style", "fusion", "-reverse", "a.rep"}));
    REQUIRE(options);
    CHECK(options->files == QStringList {QStringLiteral("a.rep")});
}
