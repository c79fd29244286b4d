// Writing RFC 4180 CSV, the one way every CSV Sightline writes is quoted (`sightline export
// --type csv`, `sightline stats --format csv`, the Events View's Export CSV and clipboard): a
// field holding a comma, a quote or a line break is put in quotes with its quotes doubled;
// any other field is written as it is. Text that is not well-formed UTF-8 is repaired first
// (model/text/utf8_repair.h).
#pragma once

#include <string>
#include <string_view>

namespace sightline {

// Appends `text` as one CSV field (quoted only when it must be).
void appendCsvField(std::string& out, std::string_view text);

// Appends one record field by field; end() closes it with a line break.
class CsvRow
{
public:
    explicit CsvRow(std::string& out)
        : m_out(out)
    { }

    CsvRow& text(std::string_view value);
    void end() { m_out += '\n'; }

private:
    void separate()
    {
        if (!m_first) m_out += ',';
        m_first = false;
    }

    std::string& m_out;
    bool m_first = true;
};

} // namespace sightline
