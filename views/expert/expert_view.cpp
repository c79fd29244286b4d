#include "views/expert/expert_view.h"

#include "model/text/time_text.h"
#include "views/expert/evidence_focus.h"
#include "views/expert/findings_model.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLocale>
#include <QProgressBar>
#include <QSplitter>
#include <QTextBrowser>
#include <QTreeView>
#include <QVBoxLayout>
#include <set>

namespace sightline::views {
namespace {

QString text(std::string_view s)
{
    return QString::fromUtf8(s.data(), qsizetype(s.size()));
}

QString html(std::string_view s)
{
    return text(s).toHtmlEscaped();
}

QString timeText(Timestamp t)
{
    return QString::fromStdString(formatTimestamp(t, 1000));
}

QString grouped(size_t n)
{
    return QLocale(QLocale::English, QLocale::UnitedStates).toString(qulonglong(n));
}

QString findingHtml(const Finding& finding)
{
    QString page = QStringLiteral("<p><b>%1</b> <span style='color:gray'>(%2, %3)</span> \u2014 %4</p>")
                       .arg(findingTitle(finding).toHtmlEscaped(), text(severityName(finding.severity)),
                           text(finding.rule), html(finding.summary));
    page += ExpertView::tr("<p><b>What to do:</b> %1</p>").arg(html(finding.advice));
    if (finding.evidenceCount > finding.evidence.size())
        page += ExpertView::tr("<p style='color:gray'>Evidence: the %1 largest of %2.</p>")
                    .arg(grouped(finding.evidence.size()), grouped(finding.evidenceCount));
    return page;
}

QString verdictHtml(const Verdict& verdict, bool rangeName)
{
    return QStringLiteral("<p><b>%1</b> \u2014 %2</p>")
        .arg(verdictText(verdict, rangeName).toHtmlEscaped(), html(verdict.reason));
}

} // namespace

ExpertView::ExpertView(std::shared_ptr<const Trace> trace, QWidget* parent)
    : QWidget(parent)
    , m_trace(std::move(trace))
{
    m_model = new FindingsModel(this);
    m_tree = new QTreeView(this);
    m_tree->setObjectName(QStringLiteral("expertFindings"));
    m_tree->setModel(m_model);
    m_tree->setUniformRowHeights(true);
    m_tree->setAlternatingRowColors(true);
    m_tree->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_tree->setSelectionMode(QAbstractItemView::SingleSelection);
    m_tree->setTextElideMode(Qt::ElideRight);
    QHeaderView* header = m_tree->header();
    header->setStretchLastSection(false);
    header->setSectionResizeMode(FindingsModel::NameColumn, QHeaderView::Stretch);
    const int digit = m_tree->fontMetrics().horizontalAdvance(QLatin1Char('0'));
    for (int c = FindingsModel::CountColumn; c < FindingsModel::kColumnCount; ++c) {
        header->setSectionResizeMode(c, QHeaderView::Interactive);
        header->resizeSection(c, (c == FindingsModel::CountColumn ? 8 : 15) * digit);
    }

    m_details = new QTextBrowser(this);
    m_details->setObjectName(QStringLiteral("expertDetails"));
    m_details->setOpenLinks(false);
    m_details->setPlaceholderText(tr("Choose a finding to read what it means and what to do."));
    // Room for a finding's two paragraphs of two lines each, before it scrolls.
    m_details->setMinimumHeight(m_details->fontMetrics().lineSpacing() * 5 + 2 * m_details->frameWidth());

    auto* splitter = new QSplitter(Qt::Vertical, this);
    splitter->setChildrenCollapsible(false);
    splitter->addWidget(m_tree);
    splitter->addWidget(m_details);
    splitter->setStretchFactor(0, 2);
    splitter->setStretchFactor(1, 1);

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(0);
    layout->addWidget(buildHeader());
    layout->addWidget(splitter, 1);

    connect(m_tree->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
        [this](const QModelIndex& current) { onCurrentChanged(current); });
    updateHeader();
    recompute();
}

ExpertView::~ExpertView() = default;

QWidget* ExpertView::buildHeader()
{
    auto* bar = new QWidget(this);
    m_verdict = new QLabel(bar);
    m_verdict->setObjectName(QStringLiteral("expertVerdict"));
    QFont large = m_verdict->font();
    large.setBold(true);
    large.setPointSizeF(large.pointSizeF() * 1.3);
    m_verdict->setFont(large);
    m_reason = new QLabel(bar);
    m_reason->setObjectName(QStringLiteral("expertReason"));
    m_reason->setWordWrap(true);
    m_reason->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_scope = new QLabel(bar);
    m_busy = new QProgressBar(bar);
    m_busy->setRange(0, 0);
    m_busy->setMaximumWidth(100);
    m_busy->setTextVisible(false);
    m_busy->hide();

    auto* top = new QHBoxLayout;
    top->addWidget(m_verdict);
    top->addStretch(1);
    top->addWidget(m_scope);
    top->addWidget(m_busy);
    auto* column = new QVBoxLayout(bar);
    column->setContentsMargins(8, 6, 8, 6);
    column->setSpacing(2);
    column->addLayout(top);
    column->addWidget(m_reason);
    return bar;
}

const AnalysisResult* ExpertView::result() const
{
    return m_model->result();
}

TimeRange ExpertView::scopeRange() const
{
    const AnalysisResult* shown = result();
    if (shown && !shown->verdicts.empty()) return shown->verdicts.front().range;
    return m_shownRange.value_or(m_trace->span);
}

void ExpertView::setSelectedRange(std::optional<TimeRange> range)
{
    if (range && range->empty()) range.reset();
    if (range == m_range) return;
    m_range = range;
    recompute();
}

void ExpertView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale) recompute();
}

void ExpertView::recompute()
{
    // A hidden view waits until it is shown: a pane closed under the timeline costs nothing.
    m_stale = !isVisible();
    if (m_stale) {
        m_request.cancel();
        return;
    }
    AnalysisOptions options;
    options.range = m_range;
    const bool wasBusy = isBusy();
    m_request.start(
        [trace = m_trace, options](const std::atomic<bool>& cancel) {
            return std::make_shared<const AnalysisResult>(analyze(*trace, options, &cancel));
        },
        [this, range = m_range](std::shared_ptr<const AnalysisResult> analysed, bool newest) {
            if (!newest) return;
            if (!analysed->cancelled) {
                m_shownRange = range;
                showResult(std::move(analysed));
            }
            updateHeader();
            emit busyChanged(false);
            if (result()) emit resultShown();
        });
    updateHeader();
    if (!wasBusy) emit busyChanged(true);
}

void ExpertView::showResult(std::shared_ptr<const AnalysisResult> analysed)
{
    m_listedFinding = -1;
    m_model->setResult(std::move(analysed));
    for (const QModelIndex& group : m_model->groupIndexes())
        m_tree->expand(group);
    m_details->clear();
}

void ExpertView::updateHeader()
{
    m_busy->setVisible(isBusy());
    const AnalysisResult* shown = result();
    QString scope = m_shownRange
        ? tr("Selection %1 \u2013 %2").arg(timeText(m_shownRange->start), timeText(m_shownRange->end))
        : tr("Whole report");
    if (!shown) {
        m_verdict->setText(tr("Analysing\u2026"));
        m_reason->setText(QString());
        m_scope->setText(QString());
        return;
    }
    scope += shown->findings.size() == 1 ? tr(" \u00b7 1 finding")
                                         : tr(" \u00b7 %1 findings").arg(grouped(shown->findings.size()));
    if (!m_shownRange) scope += tr(" \u00b7 drag across the timeline to analyse a range");
    m_scope->setText(scope);
    if (shown->verdicts.empty()) {
        m_verdict->setText(tr("No verdict"));
        m_reason->setText(QString());
        return;
    }
    const Verdict& verdict = shown->verdicts.front();
    m_verdict->setText(tr("Verdict: %1").arg(limitTitle(verdict.limit)));
    m_reason->setText(text(verdict.reason));
}

bool ExpertView::selectFinding(size_t finding)
{
    const QModelIndex index = m_model->findingIndex(finding);
    if (!index.isValid()) return false;
    m_tree->scrollTo(index);
    m_tree->selectionModel()->setCurrentIndex(
        index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
    return true;
}

EventsRequest ExpertView::requestFor(const Finding& finding) const
{
    EventsRequest request;
    std::set<TrackId> tracks;
    for (const Evidence& piece : finding.evidence)
        if (piece.event) {
            request.source.events.push_back(*piece.event);
            tracks.insert(piece.event->track);
        }
    request.source.tracks.assign(tracks.begin(), tracks.end());
    request.title = tr("Expert \u00b7 %1").arg(findingTitle(finding));
    if (finding.evidenceCount > finding.evidence.size())
        request.title += tr(" (the %1 largest of %2)")
                             .arg(grouped(finding.evidence.size()), grouped(finding.evidenceCount));
    return request;
}

void ExpertView::onCurrentChanged(const QModelIndex& index)
{
    showDetails(index);
    if (!index.isValid()) return;
    if (const Verdict* verdict = m_model->verdictAt(index)) {
        emit timelineFocusRequested(verdict->range, std::nullopt);
        return;
    }
    const Finding* finding = m_model->findingAt(index);
    if (!finding) return; // a severity group
    const int number = m_model->findingNumber(index);
    const EvidenceFocus forFinding = findingFocus(*finding, scopeRange());
    // The Events View lists the finding's evidence once; its evidence rows then select in that list.
    if (!forFinding.events.empty() && number != m_listedFinding) {
        m_listedFinding = number;
        emit eventsRequested(requestFor(*finding));
    }
    const Evidence* evidence = m_model->evidenceAt(index);
    const EvidenceFocus focus = evidence ? evidenceFocus(*evidence) : forFinding;
    if (focus.zoom) emit timelineFocusRequested(*focus.zoom, focus.event);
}

void ExpertView::showDetails(const QModelIndex& index)
{
    if (const Finding* finding = m_model->findingAt(index)) {
        m_details->setHtml(findingHtml(*finding));
    } else if (const Verdict* verdict = m_model->verdictAt(index)) {
        m_details->setHtml(verdictHtml(*verdict, index.row() > 0));
    } else {
        m_details->clear();
    }
}

} // namespace sightline::views
