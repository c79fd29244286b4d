// One Events View query: filter the listed events by name (a case-insensitive substring or a
// regular expression) and order them by a column, producing the rows the table shows. Pure
// computation over the Trace's columns, meant for a worker thread: it reads only immutable
// data and checks a cancel flag often, so a newer query can stop an older one early.
// Invariant: the output is a subsequence of the input rows, reordered stably (equal keys keep
// the input order, which is start order), with rows lacking the sort column's value last.
#pragma once

#include "views/events/event_columns.h"

#include <QString>
#include <atomic>
#include <span>
#include <vector>

namespace sightline::views {

struct NameFilter
{
    QString pattern;
    bool regex = false;
    bool isEmpty() const { return pattern.isEmpty(); }
    friend bool operator==(const NameFilter&, const NameFilter&) = default;
};

struct EventQuery
{
    NameFilter filter;
    EventColumn sortColumn = EventColumn::Start;
    Qt::SortOrder order = Qt::AscendingOrder;
    friend bool operator==(const EventQuery&, const EventQuery&) = default;
};

// One flag per name key (EventNames): 1 where the name matches. `error` is set, and the
// flags left empty, for an invalid regular expression.
struct NameMatches
{
    std::vector<uint8_t> matches;
    QString error;
};
NameMatches matchNames(const EventNames& names, const NameFilter& filter);

struct QueryOutcome
{
    std::vector<EventRef> rows;
    QString error; // one sentence, when the filter is unusable
    bool cancelled = false; // a newer query took over; `rows` is meaningless
};

// Filters, then sorts, `base` (which must be in start order, as collectRows gives it).
QueryOutcome runEventQuery(const EventCells& cells, std::span<const EventRef> base, const EventQuery& query,
    const std::atomic<bool>* cancel = nullptr);

} // namespace sightline::views
