#include "views/timeline/widgets/find_bar.h"

#include "views/timeline/interaction/event_geometry.h"
#include "views/timeline/interaction/navigation.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QToolButton>

namespace sightline::views {

FindBar::FindBar(TimelineState& state, QWidget* parent)
    : QWidget(parent)
    , m_state(state)
    , m_finder(std::in_place, state.trace())
{
    setObjectName(QStringLiteral("timelineFindBar"));
    m_field = new QLineEdit(this);
    m_field->setObjectName(QStringLiteral("findField"));
    m_field->setPlaceholderText(tr("Find events by name"));
    m_field->setClearButtonEnabled(true);
    m_field->setMinimumWidth(260);
    m_regex = new QCheckBox(tr("Regex"), this);
    m_caseSensitive = new QCheckBox(tr("Match case"), this);
    auto* previous = new QToolButton(this);
    previous->setText(tr("Previous"));
    previous->setToolTip(tr("Previous match (Shift+Enter, Shift+F3)"));
    auto* next = new QToolButton(this);
    next->setText(tr("Next"));
    next->setToolTip(tr("Next match (Enter, F3)"));
    auto* close = new QToolButton(this);
    close->setText(QStringLiteral("\u2715"));
    close->setToolTip(tr("Close (Esc)"));
    close->setAutoRaise(true);
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("findStatus"));

    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 3, 6, 3);
    layout->addWidget(new QLabel(tr("Find:"), this));
    layout->addWidget(m_field);
    layout->addWidget(m_regex);
    layout->addWidget(m_caseSensitive);
    layout->addWidget(previous);
    layout->addWidget(next);
    layout->addWidget(m_status, 1);
    layout->addWidget(close);

    connect(m_field, &QLineEdit::textChanged, this, &FindBar::patternChanged);
    connect(m_regex, &QCheckBox::toggled, this, &FindBar::patternChanged);
    connect(m_caseSensitive, &QCheckBox::toggled, this, &FindBar::patternChanged);
    connect(previous, &QToolButton::clicked, this, &FindBar::findPrevious);
    connect(next, &QToolButton::clicked, this, &FindBar::findNext);
    connect(close, &QToolButton::clicked, this, [this] {
        hide();
        emit closed();
    });
    connect(&m_state, &TimelineState::traceChanged, this, [this] {
        m_finder.emplace(m_state.trace());
        m_current.reset();
        m_patternDirty = true;
    });
}

void FindBar::activate()
{
    show();
    m_field->setFocus(Qt::ShortcutFocusReason);
    m_field->selectAll();
}

QString FindBar::status() const
{
    return m_status->text();
}

void FindBar::patternChanged()
{
    m_patternDirty = true;
    m_status->clear();
}

void FindBar::findNext()
{
    step(FindDirection::Next);
}

void FindBar::findPrevious()
{
    step(FindDirection::Previous);
}

void FindBar::step(FindDirection direction)
{
    if (m_patternDirty) {
        const Status accepted
            = m_finder->setPattern(m_field->text(), m_regex->isChecked(), m_caseSensitive->isChecked());
        m_patternDirty = false;
        m_current.reset();
        if (!accepted) {
            m_status->setText(QString::fromStdString(accepted.error()));
            return;
        }
    }
    if (!m_finder->hasPattern()) return;
    // Continue from the selected event when it is the last match; else from the view's start.
    std::optional<FindPosition> from;
    if (m_current && m_state.selectedEvent() == m_current) from = m_finder->positionOf(*m_current);
    std::optional<EventRef> found;
    if (from || direction == FindDirection::Previous)
        found = m_finder->step(from, direction);
    else
        found = m_finder->firstFrom(m_state.visible().start);
    if (!found) {
        m_status->setText(tr("No event name matches."));
        return;
    }
    m_current = found;
    m_state.selectEvent(found);
    bringIntoView(m_state, *found, true);
    const uint64_t matching = m_finder->matchingEvents();
    m_status->setText(matching == 1 ? tr("1 event matches.")
                                    : tr("%1 events match.").arg(QLocale().toString(qulonglong(matching))));
}

void FindBar::keyPressEvent(QKeyEvent* event)
{
    switch (event->key()) {
    case Qt::Key_Return:
    case Qt::Key_Enter:
        if (event->modifiers() & Qt::ShiftModifier)
            findPrevious();
        else
            findNext();
        return;
    case Qt::Key_Escape:
        hide();
        emit closed();
        return;
    default:
        QWidget::keyPressEvent(event);
    }
}

} // namespace sightline::views
