// The find bar (Ctrl+F) above the timeline: a text field, Regex and Match case switches,
// Previous / Next buttons and a status line. Enter finds the next match, Shift+Enter the
// previous one, Esc closes the bar. Each match is selected, its row expanded and scrolled to,
// and the view zoomed to it.
#pragma once

#include "views/timeline/interaction/event_finder.h"
#include "views/timeline/interaction/timeline_state.h"

#include <QWidget>
#include <optional>

class QCheckBox;
class QLabel;
class QLineEdit;

namespace sightline::views {

class FindBar : public QWidget
{
    Q_OBJECT
public:
    FindBar(TimelineState& state, QWidget* parent = nullptr);

    void activate(); // shows the bar and focuses the text field
    void findNext();
    void findPrevious();
    QLineEdit* field() const { return m_field; }
    QString status() const;

signals:
    void closed();

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void patternChanged();
    void step(FindDirection direction);

    TimelineState& m_state;
    std::optional<EventFinder> m_finder; // of the state's trace, made again when it changes
    QLineEdit* m_field = nullptr;
    QCheckBox* m_regex = nullptr;
    QCheckBox* m_caseSensitive = nullptr;
    QLabel* m_status = nullptr;
    bool m_patternDirty = true;
    std::optional<EventRef> m_current;
};

} // namespace sightline::views
