#include "app/ui/shell/keyboard_help.h"

#include <QCoreApplication>
#include <QDialog>
#include <QDialogButtonBox>
#include <QHeaderView>
#include <QKeySequence>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace sightline::ui {

namespace {

QString tr(const char* text)
{
    return QCoreApplication::translate("KeyboardHelp", text);
}

QString keys(const QKeySequence& sequence)
{
    return sequence.toString(QKeySequence::NativeText);
}

const QString kDialogName = QStringLiteral("keyboardHelpDialog");

// The shell's keys: the same sequences main_window.cpp binds.
std::vector<views::HelpEntry> shellKeys()
{
    return {
        {keys(QKeySequence::Open), tr("Open a report")},
        {keys(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O)),
            tr("Open a report from a remote server (SSH, HTTPS)")},
        {keys(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_P)), tr("Profile an application")},
        {keys(QKeySequence(Qt::CTRL | Qt::Key_W)), tr("Close the current report")},
        {keys(QKeySequence::Refresh), tr("Reload the current report from disk")},
        {keys(QKeySequence::NextChild), tr("Next report tab")},
        {keys(QKeySequence::PreviousChild), tr("Previous report tab")},
        {keys(QKeySequence::Quit), tr("Quit")},
        {tr("Drop files on the window"), tr("Open them, one tab each")},
    };
}

} // namespace

std::vector<HelpGroup> keyboardHelpGroups()
{
    return {
        {tr("Reports"), shellKeys()},
        {tr("Timeline keys"), views::keyboardHelp()},
        {tr("Timeline mouse"), views::mouseHelp()},
    };
}

void showKeyboardHelp(QWidget* parent)
{
    if (auto* existing = parent->findChild<QDialog*>(kDialogName, Qt::FindDirectChildrenOnly)) {
        existing->show();
        existing->raise();
        existing->activateWindow();
        return;
    }
    auto* dialog = new QDialog(parent);
    dialog->setObjectName(kDialogName);
    dialog->setWindowTitle(tr("Keyboard and Mouse"));
    dialog->setAttribute(Qt::WA_DeleteOnClose);

    auto* list = new QTreeWidget(dialog);
    list->setColumnCount(2);
    list->setHeaderLabels({tr("Keys"), tr("Action")});
    list->setRootIsDecorated(false);
    list->setSelectionMode(QAbstractItemView::NoSelection);
    list->setFocusPolicy(Qt::NoFocus);
    for (const HelpGroup& group : keyboardHelpGroups()) {
        auto* heading = new QTreeWidgetItem(list, {group.title});
        heading->setFirstColumnSpanned(true);
        QFont bold = heading->font(0);
        bold.setBold(true);
        heading->setFont(0, bold);
        for (const views::HelpEntry& entry : group.entries)
            new QTreeWidgetItem(list, {entry.keys, entry.meaning});
    }
    list->header()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    list->header()->setStretchLastSection(true);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Close, dialog);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::close);

    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(list);
    layout->addWidget(buttons);
    dialog->resize(640, 680);
    dialog->show();
}

} // namespace sightline::ui
