#include "views/events/event_query_runner.h"

namespace sightline::views {

EventQueryRunner::EventQueryRunner(
    std::shared_ptr<const Trace> trace, std::shared_ptr<const EventCells> cells, QObject* parent)
    : QObject(parent)
    , m_trace(std::move(trace))
    , m_cells(std::move(cells))
{ }

EventQueryRunner::~EventQueryRunner() = default;

void EventQueryRunner::run(const EventSource& source, const EventQuery& query)
{
    if (!(source == m_source) || !m_base) {
        m_source = source;
        m_base = nullptr;
    }
    start(query);
}

void EventQueryRunner::requery(const EventQuery& query)
{
    start(query);
}

void EventQueryRunner::start(const EventQuery& query)
{
    const bool wasBusy = isBusy();
    auto work = [trace = m_trace, cells = m_cells, source = m_source, base = m_base, query](
                    const std::atomic<bool>& cancel) {
        Outcome outcome;
        outcome.source = source;
        outcome.base = base;
        if (!outcome.base)
            outcome.base
                = std::make_shared<const std::vector<EventRef>>(collectRows(*trace, source, &cancel));
        if (cancel.load()) {
            outcome.cancelled = true;
            return outcome;
        }
        QueryOutcome result = runEventQuery(*cells, *outcome.base, query, &cancel);
        outcome.cancelled = result.cancelled || cancel.load();
        outcome.error = result.error;
        if (!outcome.cancelled && result.error.isEmpty())
            outcome.rows = std::make_shared<const std::vector<EventRef>>(std::move(result.rows));
        return outcome;
    };
    m_request.start(
        std::move(work), [this](Outcome outcome, bool newest) { accept(std::move(outcome), newest); });
    if (!wasBusy) emit busyChanged(true);
}

void EventQueryRunner::accept(Outcome outcome, bool newest)
{
    // A listing finished for the current source is worth keeping even if its query is stale.
    if (!m_base && outcome.base && !outcome.cancelled && outcome.source == m_source) m_base = outcome.base;
    if (!newest) return;
    emit busyChanged(false);
    if (outcome.cancelled) return;
    emit finished(outcome.rows, outcome.error);
}

} // namespace sightline::views
