// Runs Events View queries on the thread pool, so that listing, filtering and sorting
// millions of events never blocks the GUI thread. Invariant: the newest request wins. Each
// request gets a generation number; starting one cancels the one running (it stops at its
// next check), and a result whose generation is not the newest is dropped, never shown. The
// source's event list (in start order) is built once per source and reused by later queries.
#pragma once

#include "model/events/event_rows.h"
#include "views/common/latest_request.h"
#include "views/events/event_query.h"

#include <QObject>
#include <memory>

namespace sightline::views {

using EventRows = std::shared_ptr<const std::vector<EventRef>>;

class EventQueryRunner : public QObject
{
    Q_OBJECT
public:
    EventQueryRunner(std::shared_ptr<const Trace> trace, std::shared_ptr<const EventCells> cells,
        QObject* parent = nullptr);
    ~EventQueryRunner() override;

    // Lists the source's events and applies the query to them.
    void run(const EventSource& source, const EventQuery& query);
    // Applies another query to the current source's events.
    void requery(const EventQuery& query);

    bool isBusy() const { return m_request.isBusy(); }
    const EventSource& source() const { return m_source; }
    // The number of events of the current source, once listed (else 0).
    size_t sourceCount() const { return m_base ? m_base->size() : 0; }

signals:
    void busyChanged(bool busy);
    // The rows to show for the newest request; `error` is one sentence when the filter is unusable
    // (then `rows` is null and the table should keep what it shows).
    void finished(sightline::views::EventRows rows, QString error);

private:
    struct Outcome
    {
        EventSource source;
        EventRows base;
        EventRows rows;
        QString error;
        bool cancelled = false;
    };
    void start(const EventQuery& query);
    void accept(Outcome outcome, bool newest);

    std::shared_ptr<const Trace> m_trace;
    std::shared_ptr<const EventCells> m_cells;
    EventSource m_source;
    EventRows m_base; // the source's events in start order; null until listed
    LatestRequest m_request {this};
};

} // namespace sightline::views
