#include "views/timeline/widgets/keyboard_help_dialog.h"

#include "views/timeline/interaction/timeline_keys.h"

#include <QDialogButtonBox>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

namespace sightline::views {
namespace {

QString section(const QString& heading, const std::vector<HelpEntry>& entries)
{
    QString html
        = QStringLiteral("<h3>%1</h3><table cellspacing='0' cellpadding='3'>").arg(heading.toHtmlEscaped());
    for (const HelpEntry& entry : entries)
        html += QStringLiteral("<tr><td style='padding-right:16px'><b>%1</b></td><td>%2</td></tr>")
                    .arg(entry.keys.toHtmlEscaped(), entry.meaning.toHtmlEscaped());
    return html + QStringLiteral("</table>");
}

} // namespace

KeyboardHelpDialog::KeyboardHelpDialog(QWidget* parent)
    : QDialog(parent)
{
    setWindowTitle(tr("Timeline keyboard and mouse"));
    setObjectName(QStringLiteral("timelineKeyboardHelp"));
    auto* text = new QLabel(section(tr("Keys"), keyboardHelp()) + section(tr("Mouse"), mouseHelp()));
    text->setObjectName(QStringLiteral("keyboardHelpText"));
    text->setTextFormat(Qt::RichText);
    text->setTextInteractionFlags(Qt::TextSelectableByMouse);
    text->setMargin(8);
    auto* scroll = new QScrollArea;
    scroll->setWidget(text);
    scroll->setWidgetResizable(true);
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(scroll);
    layout->addWidget(buttons);
    resize(620, 640);
}

} // namespace sightline::views
