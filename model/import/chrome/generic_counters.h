// Counter ("C") events of a generic Chrome trace, held until the whole file is read and then
// turned into counter series of their process (CounterSource::Process), as Perfetto shows them.
//
// Mapping: {"ph":"C","name":"mem","pid":1,"ts":..,"args":{"used":123,"free":456}} is one sample
// of the counter "mem" of process 1 for each arg holding a number (or a number written as a
// string). A counter is one timeline: the times any of its events were written at. Each arg key
// is a series on it, named "mem used" ("mem" alone when the counter has one key), holding at
// each time the latest value written at or before it (unknown before its first), so a sample of
// one key leaves the others as they were: the step functions Perfetto draws. Several events of
// a counter at one time: the last wins. Values keep nine significant digits of the series'
// largest magnitude, whole numbers all of theirs (the series' resolution).
// Memory: 24 bytes per sample plus each counter's name and keys once.
#pragma once

#include "model/construct/trace_builder.h"
#include "model/import/chrome/kineto_event.h"

#include <map>
#include <span>
#include <string>
#include <vector>

namespace sightline {

class GenericCounters
{
public:
    // Takes a "C" event of `process` (an index the caller gives each process, into the pids
    // emit() takes); false when its args hold no number (nothing is kept).
    bool add(uint32_t process, const KinetoEvent& e);

    bool empty() const { return m_samples.empty(); }
    size_t size() const { return m_samples.size(); }
    // The earliest and latest sample time (raw file nanoseconds); false when none.
    bool span(Timestamp& first, Timestamp& last) const;

    // Adds every counter's timeline and series to the builder, times moved by -base, each
    // series running until `end` (raw, the end of the trace); returns how many series it added.
    size_t emit(TraceBuilder& builder, std::span<const Pid> pids, Timestamp base, Timestamp end);

private:
    struct Counter
    {
        uint32_t process = 0;
        std::string name;
        std::vector<std::string> keys; // one series each, in the order first written
    };
    struct Sample
    {
        Timestamp ts = 0;
        double value = 0;
        uint32_t counter = 0, key = 0; // indices into m_counters and its keys
    };

    uint32_t counterIndex(uint32_t process, std::string_view name);
    uint32_t keyIndex(Counter& counter, std::string_view key);
    void emitCounter(TraceBuilder& builder, const Counter& counter, std::span<const Sample> samples, Pid pid,
        Timestamp base, Timestamp end);

    std::vector<Counter> m_counters;
    std::map<std::pair<uint32_t, std::string>, uint32_t> m_counterIds; // (process, name)
    std::pair<uint32_t, std::string> m_lookup; // reused as the key of m_counterIds lookups
    std::vector<Sample> m_samples;
    std::string m_text, m_keyScratch, m_valueScratch;
};

} // namespace sightline
