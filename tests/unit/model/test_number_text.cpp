// Numbers as the Events View and the CSV of events write them (model/text/text_format.h): fixed
// decimals with ties rounded away from zero, as Qt's QString::number rounded them before the
// cells moved into the model (printf would round 12.5 to "12"), and digit grouping.
#include "model/text/text_format.h"

#include <catch2/catch.hpp>

using namespace sightline;

namespace {

std::string fixed(double value, int decimals)
{
    std::string text;
    appendFixed(text, value, decimals);
    return text;
}

} // namespace

TEST_CASE("fixed decimals round ties away from zero", "[text]")
{
    CHECK(fixed(12.5, 0) == "13");
    CHECK(fixed(-2.5, 0) == "-3");
    CHECK(fixed(0.5, 0) == "1");
    CHECK(fixed(1234.5, 0) == "1235");
    CHECK(fixed(0.125, 2) == "0.13"); // exactly a tie in binary
    CHECK(fixed(12.4, 0) == "12");
    CHECK(fixed(-2.0, 1) == "-2.0");
    CHECK(fixed(9.96, 1) == "10.0"); // the carry runs through the point
    CHECK(fixed(999.5, 0) == "1000");
    CHECK(fixed(99.95, 1) == "100.0"); // 99.95 is stored a little above the tie
    CHECK(fixed(-0.4, 0) == "-0");
    CHECK(fixed(-0.0, 1) == "0.0");
    CHECK(fixed(1e20, 0) == "100000000000000000000");
    CHECK(fixed(93.4375, 3) == "93.438");
}

TEST_CASE("digits are grouped by three with commas", "[text]")
{
    CHECK(groupDigits("0") == "0");
    CHECK(groupDigits("999") == "999");
    CHECK(groupDigits("1000") == "1,000");
    CHECK(groupDigits("-1234567") == "-1,234,567");
    CHECK(groupDigits("123456") == "123,456");
}
