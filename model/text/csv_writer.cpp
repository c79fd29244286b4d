#include "model/text/csv_writer.h"

#include "model/text/utf8_repair.h"

namespace sightline {

void appendCsvField(std::string& out, std::string_view text)
{
    if (!isValidUtf8(text)) {
        appendCsvField(out, repairUtf8(text));
        return;
    }
    if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
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
