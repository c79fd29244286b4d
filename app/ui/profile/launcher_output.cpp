#include "app/ui/profile/launcher_output.h"

#include <QRegularExpression>

namespace sightline::ui {

LauncherLine classifyLauncherLine(const QString& line)
{
    static const QRegularExpression progress(
        QStringLiteral("^Collecting data: ([0-9]+(?:\\.[0-9]+)?) s, ([0-9]+) events so far$"));
    static const QRegularExpression processing(
        QStringLiteral("^Processing ([0-9]+) events from [0-9]+ process"));
    LauncherLine result;
    if (line == QLatin1String("Collecting data...")) {
        result.kind = LauncherLine::Kind::Collecting;
    } else if (const auto periodic = progress.match(line); periodic.hasMatch()) {
        result.kind = LauncherLine::Kind::Progress;
        result.elapsedSeconds = periodic.captured(1).toDouble();
        result.events = periodic.captured(2).toLongLong();
    } else if (const auto merged = processing.match(line); merged.hasMatch()) {
        result.kind = LauncherLine::Kind::Processing;
        result.events = merged.captured(1).toLongLong();
    } else if (line.startsWith(QLatin1String("Generated: "))) {
        result.kind = LauncherLine::Kind::Generated;
        result.reportPath = line.mid(11).trimmed();
    } else if (line.startsWith(QLatin1String("sightline profile: "))) {
        result.kind = LauncherLine::Kind::Problem;
    }
    return result;
}

} // namespace sightline::ui
