#include "app/ui/common/diagnostics_banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QStyle>
#include <QToolButton>
#include <algorithm>

namespace sightline::ui {

QString DiagnosticsBanner::textFor(const std::vector<Diagnostic>& diagnostics)
{
    std::vector<const Diagnostic*> shown;
    for (const Diagnostic& d : diagnostics)
        if (d.severity != Severity::Info) shown.push_back(&d);
    if (shown.empty()) return {};
    // Errors first: they say the data is wrong, warnings that some is missing.
    std::stable_sort(shown.begin(), shown.end(),
        [](const Diagnostic* a, const Diagnostic* b) { return int(a->severity) > int(b->severity); });
    QString text = QString::fromStdString(shown.front()->text);
    if (shown.size() > 1)
        text += tr(" (and %n more warning(s): see Diagnostics in the Analysis Summary)", nullptr,
            int(shown.size() - 1));
    return text;
}

DiagnosticsBanner::DiagnosticsBanner(const std::vector<Diagnostic>& diagnostics, QWidget* parent)
    : QFrame(parent)
{
    setObjectName(QStringLiteral("diagnosticsBanner"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    QPalette colors = palette();
    colors.setColor(QPalette::Window, QColor(0xff, 0xf4, 0xce)); // a pale amber, readable in both themes
    colors.setColor(QPalette::WindowText, QColor(0x3b, 0x2f, 0x00));
    setPalette(colors);

    auto* icon = new QLabel(this);
    icon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxWarning).pixmap(16, 16));
    auto* text = new QLabel(textFor(diagnostics), this);
    text->setObjectName(QStringLiteral("diagnosticsBannerText"));
    text->setWordWrap(true);
    text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    auto* close = new QToolButton(this);
    close->setObjectName(QStringLiteral("diagnosticsBannerClose"));
    close->setAutoRaise(true);
    close->setText(QStringLiteral("\u2715"));
    close->setToolTip(tr("Hide this message"));
    connect(close, &QToolButton::clicked, this, &QWidget::hide);

    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(8, 4, 4, 4);
    row->addWidget(icon, 0, Qt::AlignTop);
    row->addWidget(text, 1);
    row->addWidget(close, 0, Qt::AlignTop);
    setVisible(!text->text().isEmpty());
}

} // namespace sightline::ui
