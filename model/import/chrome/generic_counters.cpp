#include "model/import/chrome/generic_counters.h"

#include <algorithm>
#include <charconv>
#include <cmath>

namespace sightline {
namespace {

// A counter value: a number, or a number written as a string; false for anything else and
// for numbers no double holds.
bool readValue(JsonCursor& cursor, std::string& scratch, double& out)
{
    const char c = cursor.peek();
    std::string_view text;
    if (c == '"')
        text = cursor.string(scratch);
    else if (c == '-' || (c >= '0' && c <= '9'))
        text = cursor.number();
    else {
        cursor.skipValue();
        return false;
    }
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), out);
    return error == std::errc() && end == text.data() + text.size() && std::isfinite(out);
}

// 1 when every known value is a whole number (below 2^53), else the power of ten that keeps
// nine significant digits of the largest magnitude.
double resolutionFor(const std::vector<double>& values)
{
    double largest = 0;
    bool whole = true;
    for (const double v : values) {
        if (std::isnan(v)) continue;
        largest = std::max(largest, std::fabs(v));
        whole = whole && v == std::floor(v);
    }
    if (whole && largest < 9007199254740992.0) return 1;
    return std::pow(10.0, std::ceil(std::log10(largest)) - 9);
}

} // namespace

uint32_t GenericCounters::counterIndex(uint32_t process, std::string_view name)
{
    m_lookup.first = process;
    m_lookup.second.assign(name);
    const auto found = m_counterIds.find(m_lookup);
    if (found != m_counterIds.end()) return found->second;
    const auto index = uint32_t(m_counters.size());
    m_counters.push_back({process, m_lookup.second, {}});
    m_counterIds.emplace(m_lookup, index);
    return index;
}

uint32_t GenericCounters::keyIndex(Counter& counter, std::string_view key)
{
    // Counters have a handful of keys: a scan beats a map.
    const auto found = std::find(counter.keys.begin(), counter.keys.end(), key);
    if (found != counter.keys.end()) return uint32_t(found - counter.keys.begin());
    counter.keys.emplace_back(key);
    return uint32_t(counter.keys.size() - 1);
}

bool GenericCounters::add(uint32_t process, const KinetoEvent& e)
{
    if (e.argsText.empty()) return false;
    // The event was parsed whole already, so its args text is valid JSON; the copy gives the
    // cursor the '\0' sentinel it stops at.
    m_text.assign(e.argsText);
    JsonCursor cursor(m_text.data(), m_text.data() + m_text.size());
    const size_t before = m_samples.size();
    try {
        cursor.expect('{');
        std::string_view key;
        bool first = true;
        while (cursor.nextKey(key, m_keyScratch, first)) {
            double value = 0;
            if (!readValue(cursor, m_valueScratch, value)) continue;
            const uint32_t counter = counterIndex(process, e.name);
            m_samples.push_back({e.ts, value, counter, keyIndex(m_counters[counter], key)});
        }
    } catch (const JsonSyntaxError&) {
    } catch (const JsonNeedMore&) { }
    return m_samples.size() > before;
}

bool GenericCounters::span(Timestamp& first, Timestamp& last) const
{
    if (m_samples.empty()) return false;
    const auto [earliest, latest] = std::minmax_element(
        m_samples.begin(), m_samples.end(), [](const Sample& a, const Sample& b) { return a.ts < b.ts; });
    first = earliest->ts;
    last = latest->ts;
    return true;
}

size_t GenericCounters::emit(TraceBuilder& builder, std::span<const Pid> pids, Timestamp base, Timestamp end)
{
    // By counter, then by time; file order among equal times, so the last written wins.
    std::stable_sort(m_samples.begin(), m_samples.end(), [](const Sample& a, const Sample& b) {
        return a.counter != b.counter ? a.counter < b.counter : a.ts < b.ts;
    });
    size_t series = 0;
    for (size_t from = 0; from < m_samples.size();) {
        size_t to = from;
        while (to < m_samples.size() && m_samples[to].counter == m_samples[from].counter)
            ++to;
        const Counter& counter = m_counters[m_samples[from].counter];
        emitCounter(builder, counter, std::span(m_samples).subspan(from, to - from), pids[counter.process],
            base, end);
        series += counter.keys.size();
        from = to;
    }
    std::vector<Sample>().swap(m_samples);
    return series;
}

void GenericCounters::emitCounter(TraceBuilder& builder, const Counter& counter,
    std::span<const Sample> samples, Pid pid, Timestamp base, Timestamp end)
{
    CounterTimeline timeline;
    std::vector<std::vector<double>> values(counter.keys.size());
    for (const Sample& s : samples) {
        if (timeline.starts.empty() || timeline.starts.back() != s.ts - base) {
            timeline.starts.push_back(s.ts - base);
            for (std::vector<double>& v : values)
                v.push_back(std::nan(""));
        }
        values[s.key].back() = s.value;
    }
    timeline.end = std::max(end - base, timeline.starts.back() + 1);
    const uint32_t timelineIndex = builder.addCounterTimeline(std::move(timeline));
    for (size_t k = 0; k < counter.keys.size(); ++k) {
        // A key not written at a time keeps its previous value there.
        for (size_t i = 1; i < values[k].size(); ++i)
            if (std::isnan(values[k][i])) values[k][i] = values[k][i - 1];
        const std::string& key = counter.keys[k];
        CounterSeries series;
        series.source = CounterSource::Process;
        series.pid = pid;
        series.timeline = timelineIndex;
        series.name = counter.name.empty() ? key
            : counter.keys.size() == 1     ? counter.name
                                           : counter.name + " " + key;
        series.description = "the trace's counter \"" + counter.name + "\", argument \"" + key + "\"";
        series.resolution = resolutionFor(values[k]);
        series.values = std::move(values[k]);
        builder.addCounterSeries(std::move(series));
    }
}

} // namespace sightline
