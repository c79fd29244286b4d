#include "app/ui/profile/profile_run_pane.h"

#include <QFontDatabase>
#include <QLabel>
#include <QLocale>
#include <QPlainTextEdit>
#include <QScrollBar>
#include <QTextBlock>
#include <QVBoxLayout>

namespace sightline::ui {

namespace {

QColor channelColour(ProfileRun::Channel channel, const QPalette& palette)
{
    const bool dark = palette.color(QPalette::Base).lightness() < 128;
    switch (channel) {
    case ProfileRun::Channel::TargetStdout:
        return palette.color(QPalette::Text);
    case ProfileRun::Channel::TargetStderr:
        return dark ? QColor(0xE0, 0xB0, 0x70) : QColor(0x8A, 0x52, 0x00);
    case ProfileRun::Channel::Collector:
        return dark ? QColor(0x7F, 0xB8, 0xFF) : QColor(0x15, 0x5C, 0xB0);
    case ProfileRun::Channel::CollectorProblem:
        return dark ? QColor(0xFF, 0x80, 0x80) : QColor(0xB0, 0x1C, 0x1C);
    }
    return palette.color(QPalette::Text);
}

QString stateName(ProfileRun::State state)
{
    switch (state) {
    case ProfileRun::State::Idle:
        return QObject::tr("Ready");
    case ProfileRun::State::Collecting:
        return QObject::tr("Collecting");
    case ProfileRun::State::Stopping:
        return QObject::tr("Stopping");
    case ProfileRun::State::Processing:
        return QObject::tr("Writing the report");
    case ProfileRun::State::Finished:
        return QObject::tr("Finished");
    }
    return {};
}

} // namespace

QString formatElapsed(double seconds)
{
    if (seconds < 60) return QStringLiteral("%1 s").arg(QLocale().toString(seconds, 'f', 1));
    const qint64 whole = qint64(seconds);
    const qint64 hours = whole / 3600;
    const QString minutesSeconds = QStringLiteral("%1:%2")
                                       .arg((whole / 60) % 60, hours ? 2 : 1, 10, QLatin1Char('0'))
                                       .arg(whole % 60, 2, 10, QLatin1Char('0'));
    return hours ? QStringLiteral("%1:%2").arg(hours).arg(minutesSeconds) : minutesSeconds;
}

ProfileRunPane::ProfileRunPane(QWidget* parent)
    : QWidget(parent)
{
    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("profileStatus"));
    m_status->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_output = new QPlainTextEdit(this);
    m_output->setObjectName(QStringLiteral("profileOutput"));
    m_output->setReadOnly(true);
    m_output->setMaximumBlockCount(kMaximumLines);
    m_output->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_output->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_output->setMinimumHeight(160);

    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(0, 0, 0, 0);
    column->addWidget(m_status);
    column->addWidget(m_output, 1);
    updateStatus();
}

void ProfileRunPane::follow(ProfileRun* run)
{
    if (m_run) m_run->disconnect(this);
    m_run = run;
    if (run) {
        connect(run, &ProfileRun::outputLine, this, &ProfileRunPane::appendLine);
        connect(run, &ProfileRun::progressed, this, &ProfileRunPane::updateStatus);
        connect(run, &ProfileRun::finished, this, &ProfileRunPane::onFinished);
    }
    updateStatus();
}

void ProfileRunPane::clear()
{
    m_output->clear();
    updateStatus();
}

void ProfileRunPane::appendLine(const QString& text, ProfileRun::Channel channel)
{
    QScrollBar* bar = m_output->verticalScrollBar();
    const bool atEnd = bar->value() >= bar->maximum() - 2;
    QTextCharFormat format;
    format.setForeground(channelColour(channel, palette()));
    if (channel == ProfileRun::Channel::Collector || channel == ProfileRun::Channel::CollectorProblem)
        format.setFontWeight(QFont::DemiBold);
    QTextCursor cursor(m_output->document());
    cursor.movePosition(QTextCursor::End);
    if (!m_output->document()->isEmpty()) cursor.insertBlock();
    cursor.insertText(text, format);
    if (atEnd) bar->setValue(bar->maximum()); // follow the output unless the user scrolled up
}

void ProfileRunPane::updateStatus()
{
    if (!m_run) {
        m_status->setText(tr("Press Start to run the program under the collector."));
        return;
    }
    QString text = QStringLiteral("<b>%1</b> — %2 elapsed")
                       .arg(stateName(m_run->state()), formatElapsed(m_run->elapsedSeconds()));
    if (m_run->events() >= 0) text += tr(" — %1 events so far").arg(QLocale().toString(m_run->events()));
    m_status->setText(text);
}

void ProfileRunPane::onFinished(const ProfileOutcome& outcome)
{
    updateStatus();
    QString summary = outcome.succeeded
        ? tr("<b>Report written</b> — %1 in %2")
              .arg(outcome.reportPath.toHtmlEscaped(), formatElapsed(outcome.seconds))
        : tr("<b>No report</b> — %1").arg(outcome.error.toHtmlEscaped());
    if (outcome.succeeded && outcome.events >= 0)
        summary += tr(", %1 events").arg(QLocale().toString(outcome.events));
    if (outcome.exitCode >= 0) summary += tr("; the program exited with code %1").arg(outcome.exitCode);
    m_status->setText(summary);
}

QString ProfileRunPane::statusText() const
{
    return m_status->text();
}

QString ProfileRunPane::outputText() const
{
    return m_output->toPlainText();
}

} // namespace sightline::ui
