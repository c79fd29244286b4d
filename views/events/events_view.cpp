#include "views/events/events_view.h"

#include "views/events/event_query_runner.h"
#include "views/events/events_item_delegate.h"
#include "views/events/events_table_model.h"

#include <QAction>
#include <QCheckBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QProgressBar>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>

namespace sightline::views {
namespace {

constexpr int kFilterDelayMs = 180;
constexpr size_t kPreviewRows = 512;

} // namespace

EventsView::EventsView(std::shared_ptr<const Trace> trace, QWidget* parent)
    : QWidget(parent)
    , m_trace(std::move(trace))
    , m_cells(std::make_shared<const EventCells>(*m_trace))
{
    m_model = new EventsTableModel(m_cells, this);
    m_runner = new EventQueryRunner(m_trace, m_cells, this);
    buildLayout();
    connectSignals();
    updateColumnsForSource();
    updateStatus();
}

EventsView::~EventsView() = default;

void EventsView::buildLayout()
{
    const EventsBar bar = buildEventsBar(this);
    m_title = bar.title;
    m_title->setText(tr("Events View"));
    m_title->setObjectName(QStringLiteral("eventsViewTitle"));
    m_filter = bar.filter;
    m_regex = bar.regex;
    m_export = new QToolButton(this);
    m_export->setText(tr("Export CSV\u2026"));
    m_export->setToolTip(tr("Save the current table (sorted and filtered) as CSV"));
    bar.layout->addWidget(m_export);

    m_table = new QTableView(this);
    m_table->setModel(m_model);
    m_delegate = new EventsItemDelegate(m_table);
    m_table->setItemDelegate(m_delegate);
    setUpEventsTable(m_table);
    QHeaderView* header = m_table->horizontalHeader();
    header->setSortIndicator(int(m_query.sortColumn), m_query.order);
    m_table->viewport()->installEventFilter(this);
    m_table->installEventFilter(this);

    auto* copy = new QAction(tr("Copy"), m_table);
    copy->setShortcut(QKeySequence::Copy);
    copy->setShortcutContext(Qt::WidgetWithChildrenShortcut);
    connect(copy, &QAction::triggered, this, &EventsView::copySelection);
    m_table->addAction(copy);

    m_status = new QLabel(this);
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_busyLabel = new QLabel(this);
    m_busy = new QProgressBar(this);
    m_busy->setRange(0, 0); // indeterminate: it animates while a query runs
    m_busy->setMaximumWidth(120);
    m_busy->setMaximumHeight(m_status->sizeHint().height());
    m_busy->setTextVisible(false);
    m_busy->hide();
    m_busyLabel->hide();
    layOutEventsPane(this, bar, m_table, m_status, {m_busyLabel, m_busy});

    m_filterDelay = new QTimer(this);
    m_filterDelay->setSingleShot(true);
    m_filterDelay->setInterval(kFilterDelayMs);
}

void EventsView::connectSignals()
{
    connect(m_runner, &EventQueryRunner::finished, this, &EventsView::onRowsReady);
    connect(m_runner, &EventQueryRunner::busyChanged, this, &EventsView::onBusyChanged);
    connect(m_model, &EventsTableModel::sortRequested, this, &EventsView::sortBy);
    connect(m_table->horizontalHeader(), &QHeaderView::sectionClicked, this, &EventsView::onHeaderClicked);
    connect(m_table->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) { onCurrentRowChanged(current.isValid() ? current.row() : -1); });
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.isValid()) zoomToRow(index.row());
    });
    connect(m_table, &QTableView::customContextMenuRequested, this, &EventsView::showContextMenu);
    connect(m_filter, &QLineEdit::textEdited, m_filterDelay, qOverload<>(&QTimer::start));
    connect(m_filter, &QLineEdit::returnPressed, this, &EventsView::applyFilterBox);
    connect(m_regex, &QCheckBox::toggled, this, &EventsView::applyFilterBox);
    connect(m_filterDelay, &QTimer::timeout, this, &EventsView::applyFilterBox);
    connect(m_export, &QToolButton::clicked, this, &EventsView::exportCsvInteractively);
}

const EventSource& EventsView::source() const
{
    return m_runner->source();
}
bool EventsView::isBusy() const
{
    return m_runner->isBusy();
}
size_t EventsView::listedCount() const
{
    return m_model->listedCount();
}

std::vector<EventColumn> EventsView::visibleColumns() const
{
    std::vector<EventColumn> columns;
    const QHeaderView* header = m_table->horizontalHeader();
    for (int visual = 0; visual < header->count(); ++visual) {
        const int logical = header->logicalIndex(visual);
        if (!header->isSectionHidden(logical)) columns.push_back(EventColumn(logical));
    }
    return columns;
}

void EventsView::showEvents(const std::vector<TrackId>& tracks, std::optional<TimeRange> range)
{
    EventsRequest request;
    request.source.tracks = tracks;
    request.source.range = range;
    showRequest(request); // a new list starts unfiltered
}

void EventsView::showCounter(uint32_t series, std::optional<TimeRange> range)
{
    EventsRequest request;
    request.source.counter = series;
    request.source.range = range;
    showRequest(request);
}

void EventsView::showRequest(const EventsRequest& request)
{
    m_requestTitle = request.title;
    m_query.filter = request.filter;
    m_filterDelay->stop();
    m_filter->setText(request.filter.pattern);
    {
        const QSignalBlocker block(m_regex);
        m_regex->setChecked(request.filter.regex);
    }
    m_sourceCount = countRows(*m_trace, request.source);
    // The first screen paints at once when the order is the listing order: the first rows by
    // start are found by merging the lanes' heads, while the full list is sorted off-thread.
    if (m_query.filter.isEmpty() && m_query.sortColumn == EventColumn::Start
        && m_query.order == Qt::AscendingOrder)
        m_model->setRows(std::make_shared<const std::vector<EventRef>>(
            firstRowsByStart(*m_trace, request.source, kPreviewRows)));
    else
        m_model->setRows(std::make_shared<const std::vector<EventRef>>());
    // Last: a query that is done at once shows its rows from inside run().
    m_runner->run(request.source, m_query);
    updateColumnsForSource();
    updateStatus();
}

void EventsView::setNameFilter(const QString& pattern, bool regex)
{
    m_filterDelay->stop();
    m_filter->setText(pattern);
    {
        const QSignalBlocker block(m_regex);
        m_regex->setChecked(regex);
    }
    applyFilterBox();
}

void EventsView::applyFilterBox()
{
    m_filterDelay->stop();
    const NameFilter filter {m_filter->text(), m_regex->isChecked()};
    if (filter == m_query.filter && m_error.isEmpty()) return;
    m_query.filter = filter;
    m_runner->requery(m_query);
}

void EventsView::sortBy(EventColumn column, Qt::SortOrder order)
{
    m_table->horizontalHeader()->setSortIndicator(int(column), order);
    if (column == m_query.sortColumn && order == m_query.order) return;
    m_query.sortColumn = column;
    m_query.order = order;
    m_runner->requery(m_query);
    updateStatus();
}

void EventsView::onHeaderClicked(int section)
{
    const auto column = EventColumn(section);
    const Qt::SortOrder order = column == m_query.sortColumn
        ? (m_query.order == Qt::AscendingOrder ? Qt::DescendingOrder : Qt::AscendingOrder)
        : firstClickOrder(column);
    sortBy(column, order);
}

void EventsView::onRowsReady(std::shared_ptr<const std::vector<EventRef>> rows, const QString& error)
{
    m_error = error;
    m_filter->setStyleSheet(
        error.isEmpty() ? QString() : QStringLiteral("QLineEdit { border: 1px solid #d9534f; }"));
    if (rows) {
        std::optional<EventRef> keep = m_pendingSelection;
        const QModelIndex current = m_table->currentIndex();
        if (!keep && current.isValid() && current.row() < m_model->rowCount())
            keep = m_model->eventAt(current.row());
        m_pendingSelection.reset();
        m_sourceCount = m_runner->sourceCount();
        m_model->setRows(std::move(rows));
        m_table->scrollToTop();
        if (keep) {
            const int row = m_model->rowOf(*keep);
            setCurrentRowQuietly(row);
        }
    }
    updateStatus();
    emit rowsShown();
}

void EventsView::onBusyChanged(bool busy)
{
    m_busy->setVisible(busy);
    m_busyLabel->setVisible(busy);
    updateStatus();
    emit busyChanged(busy);
}

void EventsView::setCurrentRowQuietly(int row)
{
    m_quiet = true;
    if (row < 0) {
        m_table->selectionModel()->clear();
    } else {
        const QModelIndex index = m_model->index(row, int(EventColumn::Name));
        m_table->selectionModel()->setCurrentIndex(
            index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    }
    m_quiet = false;
}

void EventsView::selectEvent(std::optional<EventRef> event)
{
    if (!event) {
        setCurrentRowQuietly(-1);
        return;
    }
    if (isBusy()) m_pendingSelection = event;
    const int row = m_model->rowOf(*event);
    setCurrentRowQuietly(row);
    if (row >= 0) m_table->scrollTo(m_model->index(row, 0), QAbstractItemView::PositionAtCenter);
}

void EventsView::onCurrentRowChanged(int row)
{
    if (m_quiet || row < 0) return;
    const EventRef event = m_model->eventAt(row);
    if (!counterSeriesOf(*m_trace, event)) emit eventSelected(event);
}

void EventsView::zoomToRow(int row)
{
    const EventRef event = m_model->eventAt(row);
    if (!counterSeriesOf(*m_trace, event)) {
        emit zoomToEventRequested(event);
        return;
    }
    const auto start = m_cells->number(event, EventColumn::Start);
    const auto end = m_cells->number(event, EventColumn::End);
    if (start && end) emit zoomToRangeRequested({*start, *end});
}

} // namespace sightline::views
