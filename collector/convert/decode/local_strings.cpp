#include "collector/convert/decode/local_strings.h"

namespace sightline::collector {

LocalStrings::LocalStrings()
{
    m_texts.emplace_back();
}

uint32_t LocalStrings::internSlow(std::string_view text, Recent& recent)
{
    auto [it, added] = m_ids.try_emplace(text, uint32_t(m_texts.size()));
    if (added) m_texts.push_back(text);
    recent = {it->first, it->second};
    return it->second;
}

uint32_t LocalStrings::internCopy(std::string text)
{
    if (text.empty()) return 0;
    if (auto found = m_ids.find(text); found != m_ids.end()) return found->second;
    return intern(m_copies.emplace_back(std::move(text)));
}

} // namespace sightline::collector
