// Interned strings. Ids are dense and stable: StringId(i) is the i-th string added. Id 0 is
// always the empty string, so a default StringId names "nothing" safely.
#pragma once

#include "model/core/ids.h"

#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sightline {

class StringTable
{
public:
    StringTable();

    StringId intern(std::string_view text);
    // Appends without looking for an equal string: for readers restoring a table verbatim.
    StringId append(std::string text);

    std::string_view operator[](StringId id) const { return m_strings[id.value]; }
    size_t size() const { return m_strings.size(); }
    bool contains(StringId id) const { return id.value < m_strings.size(); }
    // The id of an existing equal string, or no value.
    bool find(std::string_view text, StringId& out) const;

    size_t residentBytes() const;
    friend bool operator==(const StringTable& a, const StringTable& b) { return a.m_strings == b.m_strings; }

private:
    void ensureIndex() const;

    std::vector<std::string> m_strings;
    // Built on first intern()/find() of a loaded table; readers never pay for it.
    mutable std::unordered_map<std::string_view, uint32_t> m_index;
    mutable size_t m_indexed = 0;
};

} // namespace sightline
