// The rules a spool record must follow to be read (spool/spool_format.h): its size (a multiple
// of 8, at least its type's fixed part; types this reader does not know only need a header)
// and, for records that carry text, a text length that fits in the record.
#pragma once

#include "collector/spool/spool_format.h"

#include <cstdint>

namespace sightline::collector {

// Where a record's text starts and how long it is; {0, 0} for types without text.
struct TextSpan
{
    uint32_t offset = 0;
    uint32_t bytes = 0;
};

TextSpan textSpan(const spool::RecordHeader& record);
// The record may be read: it follows the rules above (its bytes are assumed present).
bool validRecord(const spool::RecordHeader& record);

} // namespace sightline::collector
