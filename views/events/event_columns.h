// The Qt face of the event columns and cells the model defines (model/events/event_columns.h,
// model/events/event_cells.h): their text as QString and QVariant for the Events View's tables,
// and a header click's first sort order. What a column holds is decided there, never here.
#pragma once

#include "model/events/event_cells.h"

#include <QString>
#include <QVariant>
#include <Qt>
#include <string_view>

namespace sightline::views {

// The views' signals and the shell name the model's column as views::EventColumn.
using sightline::EventColumn;

QString toQString(std::string_view text);

QString columnTitle(EventColumn column);
// Measures (durations, sizes, counts) sort largest first on the first click; names and times
// sort ascending.
Qt::SortOrder firstClickOrder(EventColumn column);
// What a table's header shows for the column in `role`: its title, alignment and tooltip (how
// a click sorts).
QVariant columnHeaderData(EventColumn column, int role);
// What a table's cell shows in `role`: the display text, the tooltip, the alignment (numbers
// right-aligned); nothing for other roles.
QVariant cellData(const EventCells& cells, EventRef event, EventColumn column, int role);

} // namespace sightline::views
