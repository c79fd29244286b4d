#include "model/text/csv_writer.h"

#include "model/text/utf8_repair.h"

namespace sightline {

void appendCsvField(std::string& out, std::string_view text)
{
    // One pass, branch-free so that it vectorizes, tells plain ASCII fields, most of them
    // (numbers, names), from those to check.
    unsigned char allBits = 0, special = 0;
    for (char c : text) {
        const auto byte = static_cast<unsigned char>(c);
        allBits |= byte;
        special
            |= static_cast<unsigned char>((byte == ',') | (byte == '"') | (byte == '\r') | (byte == '\n'));
    }
    const bool ascii = allBits < 0x80;
    if (!ascii && !isValidUtf8(text)) {
        appendCsvField(out, repairUtf8(text));
        return;
    }
    if (!special) {
        out += text;
        return;
    }
    out += '"';
    for (char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
}

CsvRow& CsvRow::text(std::string_view value)
{
    separate();
    appendCsvField(m_out, value);
    return *this;
}

} // namespace sightline
