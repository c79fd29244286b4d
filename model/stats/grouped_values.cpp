#include "model/stats/grouped_values.h"

#include "model/common/huge_pages.h"

#include <algorithm>
#include <cmath>

namespace sightline {

void GroupedValues::startFilling()
{
    m_begin.assign(m_counts.size() + 1, 0);
    for (size_t g = 0; g < m_counts.size(); ++g)
        m_begin[g + 1] = m_begin[g] + m_counts[g];
    m_cursor.assign(m_begin.begin(), m_begin.end() - 1);
    m_valueCount = m_begin.back();
    m_values = std::make_unique_for_overwrite<int64_t[]>(m_valueCount);
    if (m_valueCount * sizeof(int64_t) >= kHugePageColumnBytes)
        adviseHugePages(m_values.get(), m_valueCount * sizeof(int64_t)); // before pass 2 touches it
}

ValueSummary summarize(std::span<int64_t> values)
{
    ValueSummary s;
    if (values.empty()) return s;

    s.count = int64_t(values.size());
    s.minimum = values.front();
    s.maximum = values.front();
    for (int64_t v : values) {
        s.total += v;
        s.minimum = std::min(s.minimum, v);
        s.maximum = std::max(s.maximum, v);
    }
    s.average = double(s.total) / double(s.count);

    // Centered second pass: accurate even when the values are large and close together.
    if (s.count > 1) {
        double squares = 0;
        for (int64_t v : values) {
            const double d = double(v) - s.average;
            squares += d * d;
        }
        s.stdDev = std::sqrt(squares / double(s.count - 1));
    }

    const size_t mid = values.size() / 2;
    std::nth_element(values.begin(), values.begin() + mid, values.end());
    const int64_t upper = values[mid];
    if (values.size() % 2 == 1) {
        s.median = double(upper);
    } else {
        // After nth_element everything before `mid` is <= values[mid]; its largest is the other middle.
        const int64_t lower = *std::max_element(values.begin(), values.begin() + mid);
        s.median = (double(lower) + double(upper)) / 2.0;
    }
    return s;
}

} // namespace sightline
