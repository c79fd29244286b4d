#include "views/common/severity_icon.h"

#include <QStyle>

namespace sightline::views {

QIcon severityIcon(const QStyle* style, Severity severity)
{
    switch (severity) {
    case Severity::Info:
        return style->standardIcon(QStyle::SP_MessageBoxInformation);
    case Severity::Warning:
        return style->standardIcon(QStyle::SP_MessageBoxWarning);
    case Severity::Error:
        return style->standardIcon(QStyle::SP_MessageBoxCritical);
    }
    return {};
}

} // namespace sightline::views
