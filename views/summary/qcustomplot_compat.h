// Includes QCustomPlot. Its header's inline code uses Qt's `foreach`, which this project
// turns off (QT_NO_FOREACH); a plain range-for stands in for it while the header is read.
#pragma once

#ifndef foreach
#define foreach(variable, container) for (variable : container)
#define SIGHTLINE_DEFINED_FOREACH
#endif
#include <qcustomplot.h>
#ifdef SIGHTLINE_DEFINED_FOREACH
#undef foreach
#undef SIGHTLINE_DEFINED_FOREACH
#endif
