// The live pane under the Profile dialog's settings: a status line (state, elapsed time, events
// so far) and the output of the run, the target's stdout and stderr as they come and the
// collector's own lines set apart in colour. Invariant: the output keeps at most kMaximumLines
// lines (the oldest are dropped), so a chatty program cannot exhaust memory.
#pragma once

#include "app/ui/profile/profile_run.h"

#include <QWidget>

class QLabel;
class QPlainTextEdit;

namespace sightline::ui {

class ProfileRunPane : public QWidget
{
    Q_OBJECT
public:
    static constexpr int kMaximumLines = 20000;

    explicit ProfileRunPane(QWidget* parent = nullptr);

    // Follows `run` (its lines and progress) until it finishes; nullptr detaches.
    void follow(ProfileRun* run);
    void clear();
    void appendLine(const QString& text, ProfileRun::Channel channel);

    QString statusText() const;
    QString outputText() const;

private:
    void updateStatus();
    void onFinished(const ProfileOutcome& outcome);

    ProfileRun* m_run = nullptr;
    QLabel* m_status = nullptr;
    QPlainTextEdit* m_output = nullptr;
};

// "12.3 s" under a minute, "4:05" under an hour, then "1:02:03".
QString formatElapsed(double seconds);

} // namespace sightline::ui
