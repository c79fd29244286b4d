// Numbers values in the order they are first seen (0, 1, 2...) and keeps them in that order.
// A run of equal values costs one comparison each: events mostly come in runs of one row or
// one descriptor.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace sightline::collector {

template <class T, class Hash = std::hash<T>> class FirstSeen
{
public:
    uint32_t index(const T& value)
    {
        if (m_last < m_values.size() && m_values[m_last] == value) return m_last;
        auto [it, added] = m_indexes.try_emplace(value, uint32_t(m_values.size()));
        if (added) m_values.push_back(value);
        return m_last = it->second;
    }
    const std::vector<T>& values() const { return m_values; }

private:
    std::vector<T> m_values;
    std::unordered_map<T, uint32_t, Hash> m_indexes;
    uint32_t m_last = UINT32_MAX;
};

} // namespace sightline::collector
