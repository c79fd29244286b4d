#include "model/index/lane_sets.h"

#include <algorithm>
#include <limits>

namespace sightline {
namespace {

constexpr Timestamp kNever = std::numeric_limits<Timestamp>::max();

} // namespace

void SmallOpenEnds::expireUpTo(Timestamp t)
{
    std::erase_if(m_ends, [t](Timestamp end) { return end <= t; });
}

size_t SmallOpenEnds::atOrAfter(Timestamp t) const
{
    return size_t(std::count_if(m_ends.begin(), m_ends.end(), [t](Timestamp end) { return end >= t; }));
}

WideOpenEnds::WideOpenEnds(std::vector<Timestamp> ends)
    : m_keys(std::move(ends))
{
    std::sort(m_keys.begin(), m_keys.end());
    m_keys.erase(std::unique(m_keys.begin(), m_keys.end()), m_keys.end());
    m_counts.assign(m_keys.size() + 1, 0);
}

void WideOpenEnds::change(Timestamp end, int delta)
{
    const size_t key = size_t(std::lower_bound(m_keys.begin(), m_keys.end(), end) - m_keys.begin());
    for (size_t i = key + 1; i < m_counts.size(); i += i & (~i + 1))
        m_counts[i] += delta;
}

size_t WideOpenEnds::countBefore(Timestamp t) const
{
    size_t sum = 0;
    for (size_t i = size_t(std::lower_bound(m_keys.begin(), m_keys.end(), t) - m_keys.begin()); i > 0;
         i -= i & (~i + 1))
        sum += size_t(m_counts[i]);
    return sum;
}

void WideOpenEnds::add(Timestamp end)
{
    change(end, +1);
    m_soonest.push(end);
    ++m_open;
}

void WideOpenEnds::expireUpTo(Timestamp t)
{
    while (!m_soonest.empty() && m_soonest.top() <= t) {
        change(m_soonest.top(), -1);
        m_soonest.pop();
        --m_open;
    }
}

uint32_t SmallLaneEnds::firstFree(uint32_t from, Timestamp t) const
{
    uint32_t lane = from;
    while (lane < m_ends.size() && m_ends[lane] > t)
        ++lane;
    return lane;
}

void SmallLaneEnds::set(uint32_t lane, Timestamp end)
{
    if (lane == m_ends.size())
        m_ends.push_back(end);
    else
        m_ends[lane] = end;
}

WideLaneEnds::WideLaneEnds(const std::vector<Timestamp>& ends)
{
    for (uint32_t lane = 0; lane < ends.size(); ++lane)
        set(lane, ends[lane]);
}

void WideLaneEnds::set(uint32_t lane, Timestamp end)
{
    if (lane == m_count) {
        if (m_count == m_capacity) { // grow: the same leaves in a tree twice as wide
            const uint32_t capacity = std::max<uint32_t>(64, m_capacity * 2);
            std::vector<Timestamp> wider(size_t(capacity) * 2, kNever);
            std::copy_n(m_min.begin() + m_capacity, m_count, wider.begin() + capacity);
            for (size_t node = capacity - 1; node > 0; --node)
                wider[node] = std::min(wider[2 * node], wider[2 * node + 1]);
            m_min.swap(wider);
            m_capacity = capacity;
        }
        ++m_count;
    }
    size_t node = m_capacity + lane;
    m_min[node] = end;
    for (node /= 2; node > 0; node /= 2)
        m_min[node] = std::min(m_min[2 * node], m_min[2 * node + 1]);
}

uint32_t WideLaneEnds::find(size_t node, uint32_t low, uint32_t high, uint32_t from, Timestamp t) const
{
    if (high <= from || low >= m_count || m_min[node] > t) return m_count;
    if (high - low == 1) return low;
    const uint32_t middle = low + (high - low) / 2;
    const uint32_t left = find(2 * node, low, middle, from, t);
    return left != m_count ? left : find(2 * node + 1, middle, high, from, t);
}

uint32_t WideLaneEnds::firstFree(uint32_t from, Timestamp t) const
{
    return m_count == 0 ? 0 : find(1, 0, m_capacity, from, t);
}

} // namespace sightline
