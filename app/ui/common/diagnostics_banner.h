// The strip above a report's views that says what the report lost or may show wrongly: its
// warning and error diagnostics (a report cut short, records the collector dropped, rows an
// importer could not read). The first is shown in full, the others counted (the Analysis
// Summary lists them all). Hidden when there is nothing to say; the user may dismiss it.
#pragma once

#include "model/core/metadata.h"

#include <QFrame>
#include <vector>

namespace sightline::ui {

class DiagnosticsBanner : public QFrame
{
    Q_OBJECT
public:
    explicit DiagnosticsBanner(const std::vector<Diagnostic>& diagnostics, QWidget* parent = nullptr);

    // What the banner says about `diagnostics`; empty when they hold no warning or error.
    static QString textFor(const std::vector<Diagnostic>& diagnostics);
};

} // namespace sightline::ui
