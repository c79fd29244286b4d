#include "views/pagedevents/paged_events_view.h"

#include "views/events/events_item_delegate.h"

#include <QCheckBox>
#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QScopedValueRollback>
#include <QScrollBar>
#include <QTableView>
#include <QTimer>
#include <QToolButton>
#include <QVBoxLayout>
#include <thread>

namespace sightline::views {

namespace {

constexpr int kFilterDelayMs = 400;
constexpr int kProgressPollMs = 100;
// A page holds the rows on screen and this many screens before and after them.
constexpr size_t kPageScreens = 2;

// Workers for reading and sorting: every core but one, which the GUI thread keeps (with all of
// them busy, a 10 ms timer on a 16-core machine fired up to 19 ms late while 194M events sorted).
unsigned backgroundWorkers()
{
    return std::max(1u, std::thread::hardware_concurrency() - 1);
}

// What ordering and listing `events` events takes at most: the order's work and the result.
uint64_t orderBytes(uint64_t events)
{
    return events * (kOrderBytesPerEvent + sizeof(uint32_t));
}

QString orderText(const TrackOrderRequest& request)
{
    const bool ascending = request.order == Qt::AscendingOrder;
    switch (request.column) {
    case EventColumn::Duration:
        return ascending ? QObject::tr("by duration, shortest first")
                         : QObject::tr("by duration, longest first");
    case EventColumn::End:
        return ascending ? QObject::tr("by end") : QObject::tr("by end, latest first");
    default:
        return ascending ? QObject::tr("by start") : QObject::tr("by start, latest first");
    }
}

} // namespace

PagedEventsView::PagedEventsView(OpenedTrack opened, uint64_t memoryBudget, QWidget* parent)
    : QWidget(parent)
    , m_pager(std::move(opened.pager))
    , m_memoryBudget(memoryBudget)
{
    m_model = new PagedEventsModel(std::move(opened.structure), this);
    buildLayout();
    startOrder();
}

PagedEventsView::~PagedEventsView() = default;

void PagedEventsView::buildLayout()
{
    const EventsBar bar = buildEventsBar(this);
    m_title = bar.title;
    m_title->setObjectName(QStringLiteral("pagedEventsTitle"));
    m_title->setText(tr("Events View: %1 (whole report, read from the file)")
                         .arg(toQString(m_model->cells().trackTitle(TrackId(0)))));
    m_filter = bar.filter;
    m_regex = bar.regex;
    m_close = new QToolButton(this);
    m_close->setText(tr("Close"));
    m_close->setToolTip(tr("Close this list and let its rows go"));
    bar.layout->addWidget(m_close);

    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("pagedEventsTable"));
    m_table->setModel(m_model);
    setUpEventsTable(m_table);
    m_table->setSelectionMode(QAbstractItemView::SingleSelection);
    QHeaderView* header = m_table->horizontalHeader();
    header->setSortIndicator(int(m_request.column), m_request.order);
    for (int c = 0; c < kEventColumnCount; ++c)
        header->setSectionHidden(c, !columnApplies(EventColumn(c), m_pager->track().key.kind));
    m_table->viewport()->installEventFilter(this);
    m_table->installEventFilter(this);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("pagedEventsStatus"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_status->setWordWrap(true);
    m_progress = new QProgressBar(this);
    m_progress->setMaximumWidth(160);
    m_progress->setMaximumHeight(m_status->sizeHint().height() + 4);
    m_progress->hide();
    m_cancel = new QPushButton(tr("Cancel"), this);
    m_cancel->setToolTip(tr("Stop reading and sorting; the rows listed before stay"));
    m_cancel->hide();
    // The table shows a window of the listing (paged_events_model.h); this bar spans all of it.
    m_table->setVerticalScrollBarPolicy(Qt::ScrollBarAlwaysOff);
    m_table->setVerticalScrollMode(QAbstractItemView::ScrollPerItem);
    m_scroll = new QScrollBar(Qt::Vertical, this);
    m_scroll->setObjectName(QStringLiteral("pagedEventsScroll"));
    auto* tableArea = new QWidget(this);
    auto* tableRow = new QHBoxLayout(tableArea);
    tableRow->setContentsMargins(0, 0, 0, 0);
    tableRow->setSpacing(0);
    tableRow->addWidget(m_table, 1);
    tableRow->addWidget(m_scroll);
    layOutEventsPane(this, bar, tableArea, m_status, {m_progress, m_cancel});

    m_filterDelay = new QTimer(this);
    m_filterDelay->setSingleShot(true);
    m_filterDelay->setInterval(kFilterDelayMs);
    m_progressPoll = new QTimer(this);
    m_progressPoll->setInterval(kProgressPollMs);

    connect(m_filter, &QLineEdit::textChanged, m_filterDelay, qOverload<>(&QTimer::start));
    connect(m_regex, &QCheckBox::toggled, this,
        [this] { setNameFilter(m_filter->text(), m_regex->isChecked()); });
    connect(m_filterDelay, &QTimer::timeout, this,
        [this] { setNameFilter(m_filter->text(), m_regex->isChecked()); });
    connect(m_close, &QToolButton::clicked, this, &PagedEventsView::closeRequested);
    connect(m_cancel, &QPushButton::clicked, this, &PagedEventsView::cancel);
    connect(m_progressPoll, &QTimer::timeout, this, &PagedEventsView::updateProgress);
    connect(header, &QHeaderView::sectionClicked, this, &PagedEventsView::onHeaderClicked);
    connect(m_table->verticalScrollBar(), &QScrollBar::valueChanged, this, &PagedEventsView::onTableScrolled);
    connect(
        m_scroll, &QScrollBar::valueChanged, this, [this](int value) { scrollToPosition(size_t(value)); });
    connect(m_table, &QTableView::activated, this, [this](const QModelIndex& index) {
        if (const std::optional<EventRef> event = m_model->pageEvent(index.row())) {
            const Track& track = m_model->pageTrace().tracks.front();
            emit zoomToRangeRequested({track.events.start[event->index], track.events.end[event->index]});
        }
    });
}

uint64_t PagedEventsView::residentBytes() const
{
    return m_model->listedCount() * sizeof(uint32_t)
        + m_model->pageTrace().tracks.front().events.residentBytes();
}

void PagedEventsView::sortBy(EventColumn column, Qt::SortOrder order)
{
    if (!isTrackOrderColumn(column)) return;
    m_request.column = column;
    m_request.order = order;
    m_table->horizontalHeader()->setSortIndicator(int(column), order);
    startOrder();
}

void PagedEventsView::setNameFilter(const QString& pattern, bool regex)
{
    m_filterDelay->stop();
    const NameFilter filter {pattern, regex};
    if (filter == m_request.filter) return;
    m_request.filter = filter;
    startOrder();
}

void PagedEventsView::cancel()
{
    // The worker stops at its next check; onOrdered then hides the progress.
    m_orderWork.cancel();
}

void PagedEventsView::startOrder()
{
    m_error.clear();
    // The rows listed now stay until the new order replaces them: both count.
    const uint64_t need = orderBytes(m_pager->eventCount()) + residentBytes();
    if (need > m_memoryBudget) {
        const QLocale locale;
        m_error
            = tr("Ordering this track's %1 events needs about %2 of memory, more than the viewer's budget "
                 "of %3 (sightline-ui --memory-budget).")
                  .arg(locale.toString(qulonglong(m_pager->eventCount())),
                      locale.formattedDataSize(qint64(need), 1),
                      locale.formattedDataSize(qint64(m_memoryBudget), 1));
        updateStatus();
        return;
    }
    // Its own counter: an older order still stopping must not move this one's progress.
    m_batchesRead = std::make_shared<std::atomic<uint64_t>>(0);
    m_progress->setRange(0, int(m_pager->batchCount()));
    m_progress->setValue(0);
    m_progress->show();
    m_cancel->show();
    m_progressPoll->start();
    emit busyChanged(true);
    updateStatus();
    m_orderWork.start(
        [pager = m_pager, page = m_model->page(), request = m_request, read = m_batchesRead](
            const std::atomic<bool>& cancelled) {
            return orderTrackEvents(
                *pager, page->cells.names(), request, cancelled,
                [read](size_t done, size_t) { read->store(done, std::memory_order_relaxed); },
                backgroundWorkers());
        },
        [this](TrackOrder order, bool newest) { onOrdered(std::move(order), newest); });
}

void PagedEventsView::onOrdered(TrackOrder order, bool newest)
{
    if (!newest) return;
    m_progressPoll->stop();
    m_progress->hide();
    m_cancel->hide();
    if (order.cancelled) {
        // The rows listed before stay.
    } else if (!order.error.isEmpty()) {
        m_error = order.error;
    } else {
        m_model->setRows(std::make_shared<const std::vector<uint32_t>>(std::move(order.rows)));
        scrollToPosition(0);
        emit rowsShown();
    }
    emit busyChanged(false);
    updateStatus();
}

std::pair<size_t, size_t> PagedEventsView::shownPositions() const
{
    const size_t listed = m_model->listedCount();
    const int top = std::max(0, m_table->rowAt(0));
    const int bottom = m_table->rowAt(m_table->viewport()->height() - 1);
    const size_t first = m_model->positionOf(top);
    const size_t last
        = bottom < 0 ? m_model->positionOf(m_model->rowCount() - 1) : m_model->positionOf(bottom);
    return {std::min(first, listed - 1), std::min(std::max(first, last), listed - 1)};
}

size_t PagedEventsView::screenRows() const
{
    const int rowHeight = std::max(1, m_table->verticalHeader()->defaultSectionSize());
    return size_t(std::max(1, m_table->viewport()->height() / rowHeight));
}

void PagedEventsView::updateScrollRange()
{
    const QSignalBlocker quiet(m_scroll);
    const size_t listed = m_model->listedCount();
    const size_t screen = screenRows();
    m_scroll->setRange(0, int(listed > screen ? listed - screen : 0));
    m_scroll->setPageStep(int(screen));
    m_scroll->setValue(listed > 0 ? int(shownPositions().first) : 0);
}

void PagedEventsView::scrollToPosition(size_t position)
{
    const size_t listed = m_model->listedCount();
    if (listed == 0) return;
    position = std::min(position, listed - 1);
    // Inside the window, with a screen to spare each side, the table scrolls; else the window
    // moves first, centred on the position.
    const size_t screen = screenRows();
    const size_t first = m_model->windowFirst(), end = first + size_t(m_model->rowCount());
    const bool inside = position >= first + (first > 0 ? screen : 0)
        && position + 2 * screen <= end + (end == listed ? 2 * screen : 0);
    {
        const QScopedValueRollback moving(m_movingWindow, true);
        if (!inside) m_model->setWindowFirst(position - std::min(position, m_model->windowSize() / 2));
        m_table->verticalScrollBar()->setValue(int(position - m_model->windowFirst()));
    }
    updateScrollRange();
    readVisiblePage();
}

void PagedEventsView::onTableScrolled()
{
    if (m_movingWindow || m_model->listedCount() == 0) return;
    // Scrolled by the wheel or the keys near the window's edge: the window follows.
    scrollToPosition(shownPositions().first);
}

void PagedEventsView::readVisiblePage()
{
    const size_t listed = m_model->listedCount();
    if (listed == 0) return;
    const auto [first, last] = shownPositions();
    if (m_model->pageHolds(first, last)) return;
    const size_t screen = last - first + 1;
    const size_t pageFirst = first - std::min(first, kPageScreens * screen);
    const size_t pageEnd = std::min(listed, last + 1 + kPageScreens * screen);
    const StoredRows rows = m_model->rows();
    m_pageWork.start(
        [pager = m_pager, rows, pageFirst, pageEnd](const std::atomic<bool>&) {
            return pager->gather(
                std::span(rows->data() + pageFirst, pageEnd - pageFirst), backgroundWorkers());
        },
        [this, rows, pageFirst](Result<EventColumns> page, bool newest) {
            if (!newest) return;
            if (!page) {
                m_error = QString::fromStdString(page.error());
                updateStatus();
                return;
            }
            m_model->setPage(rows, pageFirst, std::move(page.value()));
            if (showsPage())
                emit pageShown();
            else
                readVisiblePage();
        });
}

bool PagedEventsView::showsPage() const
{
    if (m_model->listedCount() == 0) return true;
    const auto [first, last] = shownPositions();
    return m_model->pageHolds(first, last);
}

void PagedEventsView::onHeaderClicked(int section)
{
    const auto column = EventColumn(section);
    QHeaderView* header = m_table->horizontalHeader();
    if (!isTrackOrderColumn(column)) {
        header->setSortIndicator(int(m_request.column), m_request.order);
        m_error = tr("A track over the memory budget is listed by Start, Duration or End only; load a range "
                     "of the report to sort it by %1.")
                      .arg(columnTitle(column));
        updateStatus();
        return;
    }
    const Qt::SortOrder order = column == m_request.column
        ? (m_request.order == Qt::AscendingOrder ? Qt::DescendingOrder : Qt::AscendingOrder)
        : firstClickOrder(column);
    sortBy(column, order);
}

void PagedEventsView::updateProgress()
{
    m_progress->setValue(int(m_batchesRead->load(std::memory_order_relaxed)));
    updateStatus();
}

QString PagedEventsView::statusText() const
{
    return m_status->text();
}

void PagedEventsView::updateStatus()
{
    const QLocale locale;
    const QString total = locale.toString(qulonglong(m_pager->eventCount()));
    QString text;
    if (isBusy()) {
        const uint64_t read = m_batchesRead->load(std::memory_order_relaxed);
        text = read < m_pager->batchCount()
            ? tr("Reading the track's %1 events from the file (%2 of %3 batches)…")
                  .arg(total, locale.toString(qulonglong(read)),
                      locale.toString(qulonglong(m_pager->batchCount())))
            : tr("Ordering the track's %1 events %2…").arg(total, orderText(m_request));
    } else if (m_model->rows()) {
        text = m_request.filter.isEmpty()
            ? tr("%1 events, %2.").arg(total, orderText(m_request))
            : tr("%1 of %2 events match, %3.")
                  .arg(locale.toString(qulonglong(m_model->listedCount())), total, orderText(m_request));
    }
    if (!m_error.isEmpty()) text = text.isEmpty() ? m_error : text + QLatin1Char(' ') + m_error;
    m_status->setText(text);
}

bool PagedEventsView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::Resize)
        QTimer::singleShot(0, this, [this] {
            updateScrollRange();
            readVisiblePage();
        });
    return QWidget::eventFilter(watched, event);
}

} // namespace sightline::views
