// The string table of one decoded chunk (chunk_decoder.h): texts numbered in order of first
// use, id 0 being the empty string. Chunks decode in parallel, each with its own table; the
// process decoder then interns the tables into the report one after the other in chunk order,
// which hands out the ids a one-pass decode would have. Texts are views into the mapped spool
// file, into static names, or into strings the table owns (demangled kernel names).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace sightline::collector {

class LocalStrings
{
public:
    LocalStrings();

    // `text` must outlive the table (a view into the mapped file or a static string).
    uint32_t intern(std::string_view text)
    {
        if (text.empty()) return 0;
        Recent& recent = m_recent[recentSlot(text)];
        if (recent.text == text) return recent.id;
        return internSlow(text, recent);
    }
    // A text the table keeps a copy of.
    uint32_t internCopy(std::string text);

    const std::vector<std::string_view>& texts() const { return m_texts; }

private:
    struct Recent
    {
        std::string_view text;
        uint32_t id = 0;
    };
    // Programs use a handful of names over and over: a small cache keyed by a cheap hash
    // answers most lookups without hashing the whole text.
    static size_t recentSlot(std::string_view text)
    {
        return (text.size() * 131 + uint8_t(text.front()) * 7 + uint8_t(text.back())) % kRecentSlots;
    }
    uint32_t internSlow(std::string_view text, Recent& recent);

    static constexpr size_t kRecentSlots = 32;
    std::array<Recent, kRecentSlots> m_recent {};
    std::unordered_map<std::string_view, uint32_t> m_ids;
    std::vector<std::string_view> m_texts;
    std::deque<std::string> m_copies; // a deque: adding a copy never moves the others
};

} // namespace sightline::collector
