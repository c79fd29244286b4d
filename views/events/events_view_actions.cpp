// EventsView's user actions: the expand arrow and keys, the context menu, copying rows as TSV
// and exporting the table as CSV (events_view.cpp holds the layout and the query flow).
#include "model/export/events_text.h"
#include "views/events/event_query_runner.h"
#include "views/events/events_item_delegate.h"
#include "views/events/events_table_model.h"
#include "views/events/events_view.h"

#include <QApplication>
#include <QClipboard>
#include <QFileDialog>
#include <QFutureWatcher>
#include <QHeaderView>
#include <QKeyEvent>
#include <QLabel>
#include <QMenu>
#include <QMessageBox>
#include <QMouseEvent>
#include <QProgressBar>
#include <QTableView>
#include <QtConcurrent/QtConcurrentRun>

namespace sightline::views {
namespace {

constexpr size_t kMaxCopiedRows = 1000000;

// The rows as a CSV file at `path`, replacing what is there (the file dialog asked).
Status writeCsv(const EventCells& cells, std::span<const EventRef> rows,
    const std::vector<EventColumn>& columns, const QString& path)
{
    ExportOptions options;
    options.overwrite = true;
    return exportEventsCsv(cells, rows, columns, path.toStdString(), options);
}

} // namespace

bool EventsView::eventFilter(QObject* watched, QEvent* event)
{
    if (watched == m_table->viewport() && event->type() == QEvent::MouseButtonPress) {
        const auto* mouse = static_cast<QMouseEvent*>(event);
        const QPoint position = mouse->position().toPoint();
        const QModelIndex index = m_table->indexAt(position);
        if (mouse->button() == Qt::LeftButton && index.isValid()
            && m_delegate->hitsArrow(index, m_table->visualRect(index), position)) {
            toggleExpanded(index.row());
            return true;
        }
    }
    if (watched == m_table && event->type() == QEvent::KeyPress) {
        const auto* key = static_cast<QKeyEvent*>(event);
        const QModelIndex current = m_table->currentIndex();
        if (current.isValid() && key->modifiers() == Qt::NoModifier) {
            const int row = current.row();
            if (key->key() == Qt::Key_Right && m_model->isExpandable(row) && !m_model->isExpanded(row)) {
                toggleExpanded(row);
                return true;
            }
            if (key->key() == Qt::Key_Left && m_model->isExpanded(row)) {
                toggleExpanded(row);
                return true;
            }
            if (key->key() == Qt::Key_Left && m_model->depthOf(row) > 0) {
                int parent = row;
                while (parent > 0 && m_model->depthOf(parent) > 0)
                    --parent;
                m_table->setCurrentIndex(m_model->index(parent, current.column()));
                return true;
            }
            if (key->key() == Qt::Key_Return || key->key() == Qt::Key_Enter) {
                zoomToRow(row);
                return true;
            }
        }
    }
    return QWidget::eventFilter(watched, event);
}

void EventsView::toggleExpanded(int row)
{
    if (!m_model->isExpandable(row)) return;
    const bool expand = !m_model->isExpanded(row);
    const size_t total = m_model->setExpanded(row, expand);
    updateStatus();
    if (expand && total > EventsTableModel::kMaxChildren)
        m_status->setText(m_status->text()
            + tr(" \u00b7 the range holds %1 events; the first %2 are shown under it")
                  .arg(total)
                  .arg(EventsTableModel::kMaxChildren));
    else if (expand && total == 0)
        m_status->setText(m_status->text() + tr(" \u00b7 no events lie inside that range"));
}

void EventsView::showContextMenu(QPoint position)
{
    const QModelIndex index = m_table->indexAt(position);
    QMenu menu(this);
    menu.addAction(tr("Copy"), QKeySequence::Copy, this, &EventsView::copySelection)
        ->setEnabled(m_table->selectionModel()->hasSelection());
    if (index.isValid()) {
        const int row = index.row();
        const EventRef event = m_model->eventAt(row);
        menu.addAction(counterSeriesOf(*m_trace, event) ? tr("Zoom to Sample") : tr("Zoom to Event"), this,
            [this, row] { zoomToRow(row); });
        if (m_model->isExpandable(row))
            menu.addAction(m_model->isExpanded(row) ? tr("Collapse Range") : tr("Expand Range"), this,
                [this, row] { toggleExpanded(row); });
        const QString name = toQString(m_cells->display(event, EventColumn::Name));
        menu.addAction(
            tr("Filter to \u201c%1\u201d").arg(QFontMetrics(font()).elidedText(name, Qt::ElideMiddle, 320)),
            this, [this, name] {
                setNameFilter(QLatin1Char('^') + QRegularExpression::escape(name) + QLatin1Char('$'), true);
            });
    }
    menu.addSeparator();
    menu.addAction(tr("Export CSV\u2026"), this, &EventsView::exportCsvInteractively)
        ->setEnabled(listedCount() > 0);
    menu.exec(m_table->viewport()->mapToGlobal(position));
}

QString EventsView::selectionAsTsv() const
{
    std::vector<int> rows;
    for (const QItemSelectionRange& range : m_table->selectionModel()->selection())
        for (int r = range.top(); r <= range.bottom() && rows.size() < kMaxCopiedRows; ++r)
            rows.push_back(r);
    std::sort(rows.begin(), rows.end());
    rows.erase(std::unique(rows.begin(), rows.end()), rows.end());
    std::vector<EventRef> events;
    events.reserve(rows.size());
    for (int r : rows)
        events.push_back(m_model->eventAt(r));
    return toQString(eventsAsTsv(*m_cells, events, visibleColumns()));
}

void EventsView::copySelection() const
{
    if (!m_table->selectionModel()->hasSelection()) return;
    QApplication::clipboard()->setText(selectionAsTsv());
}

Status EventsView::exportCsv(const QString& path) const
{
    const auto& rows = m_model->rows();
    return writeCsv(*m_cells, rows ? std::span<const EventRef>(*rows) : std::span<const EventRef>(),
        visibleColumns(), path);
}

void EventsView::exportCsvInteractively()
{
    const QString path = QFileDialog::getSaveFileName(this, tr("Export Events to CSV"),
        QStringLiteral("events.csv"), tr("CSV files (*.csv);;All files (*)"));
    if (path.isEmpty()) return;
    auto rows = m_model->rows() ? m_model->rows() : std::make_shared<const std::vector<EventRef>>();
    auto* watcher = new QFutureWatcher<Status>(this);
    m_busyLabel->setText(tr("Exporting\u2026"));
    m_busyLabel->show();
    m_busy->show();
    connect(watcher, &QFutureWatcher<Status>::finished, this, [this, watcher, path, count = rows->size()] {
        const Status written = watcher->result();
        watcher->deleteLater();
        onBusyChanged(isBusy());
        if (!written) {
            QMessageBox::warning(this, tr("Export Events"), QString::fromStdString(written.error()));
            return;
        }
        m_status->setText(tr("Exported %1 events to %2").arg(count).arg(path));
    });
    watcher->setFuture(QtConcurrent::run([cells = m_cells, trace = m_trace, rows, columns = visibleColumns(),
                                             path] { return writeCsv(*cells, *rows, columns, path); }));
}

} // namespace sightline::views
