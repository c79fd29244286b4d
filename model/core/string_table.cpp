#include "model/core/string_table.h"

namespace sightline {

StringTable::StringTable()
{
    m_strings.emplace_back();
}

void StringTable::ensureIndex() const
{
    // std::string moves keep heap buffers, but short strings live inside the object, so the
    // index points into m_strings only after the vector stops growing: rebuild when it grew.
    if (m_indexed == m_strings.size()) return;
    m_index.clear();
    m_index.reserve(m_strings.size());
    for (uint32_t i = 0; i < m_strings.size(); ++i)
        m_index.emplace(m_strings[i], i);
    m_indexed = m_strings.size();
}

bool StringTable::find(std::string_view text, StringId& out) const
{
    ensureIndex();
    auto it = m_index.find(text);
    if (it == m_index.end()) return false;
    out = StringId(it->second);
    return true;
}

StringId StringTable::intern(std::string_view text)
{
    StringId existing;
    if (find(text, existing)) return existing;
    const auto capacityBefore = m_strings.capacity();
    const StringId id = append(std::string(text));
    if (m_strings.capacity() == capacityBefore) {
        m_index.emplace(m_strings.back(), id.value);
        m_indexed = m_strings.size();
    }
    return id;
}

StringId StringTable::append(std::string text)
{
    m_strings.push_back(std::move(text));
    return StringId(uint32_t(m_strings.size() - 1));
}

size_t StringTable::residentBytes() const
{
    size_t bytes = m_strings.capacity() * sizeof(std::string);
    for (const auto& s : m_strings)
        if (s.capacity() > 15) bytes += s.capacity() + 1;
    return bytes + m_index.size() * (sizeof(std::string_view) + sizeof(uint32_t) + 16);
}

} // namespace sightline
