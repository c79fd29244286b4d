#include "app/ui/remote/remote_browser_dialog.h"

#include <QDialogButtonBox>
#include <QFileIconProvider>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QPushButton>
#include <QStyle>
#include <QTreeWidget>
#include <QVBoxLayout>

namespace sightline::ui {

namespace {

enum Column { NameColumn, SizeColumn, ModifiedColumn };
constexpr int kIsFolderRole = Qt::UserRole + 1;

QString joinRemote(const QString& folder, const QString& name)
{
    if (folder.isEmpty()) return name;
    if (folder.endsWith(QLatin1Char('/'))) return folder + name;
    return folder + QLatin1Char('/') + name;
}

} // namespace

QString remoteParentPath(const QString& path)
{
    if (path.isEmpty() || path == QLatin1String("/") || path == QLatin1String("~")) return path;
    QString trimmed = path;
    while (trimmed.size() > 1 && trimmed.endsWith(QLatin1Char('/')))
        trimmed.chop(1);
    const int slash = trimmed.lastIndexOf(QLatin1Char('/'));
    if (slash < 0) return {};
    if (slash == 0) return QStringLiteral("/");
    return trimmed.left(slash);
}

RemoteBrowserDialog::RemoteBrowserDialog(const RemoteLocation& start, QWidget* parent)
    : QDialog(parent)
    , m_folder(start)
    , m_listingJob(new RemoteFolderListing(this))
{
    setObjectName(QStringLiteral("remoteBrowserDialog"));
    setWindowTitle(tr("Browse %1").arg(start.endpoint()));

    m_path = new QLineEdit(this);
    m_path->setObjectName(QStringLiteral("remoteFolderEdit"));
    m_up = new QPushButton(style()->standardIcon(QStyle::SP_FileDialogToParent), tr("Up"), this);
    m_up->setObjectName(QStringLiteral("remoteUpButton"));
    auto* pathRow = new QHBoxLayout;
    pathRow->addWidget(new QLabel(tr("Folder:"), this));
    pathRow->addWidget(m_path, 1);
    pathRow->addWidget(m_up);

    m_list = new QTreeWidget(this);
    m_list->setObjectName(QStringLiteral("remoteEntryList"));
    m_list->setHeaderLabels({tr("Name"), tr("Size"), tr("Modified")});
    m_list->setRootIsDecorated(false);
    m_list->setUniformRowHeights(true);
    m_list->setSortingEnabled(false);
    m_list->header()->setSectionResizeMode(NameColumn, QHeaderView::Stretch);
    m_list->header()->setSectionResizeMode(SizeColumn, QHeaderView::ResizeToContents);
    m_list->header()->setSectionResizeMode(ModifiedColumn, QHeaderView::ResizeToContents);

    m_status = new QLabel(this);
    m_status->setObjectName(QStringLiteral("remoteBrowserStatus"));
    m_status->setWordWrap(true);

    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Open | QDialogButtonBox::Cancel, this);
    m_open = buttons->button(QDialogButtonBox::Open);
    connect(buttons, &QDialogButtonBox::accepted, this, [this] {
        if (QTreeWidgetItem* item = m_list->currentItem()) onActivated(item);
    });
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto* column = new QVBoxLayout(this);
    column->addLayout(pathRow);
    column->addWidget(m_list, 1);
    column->addWidget(m_status);
    column->addWidget(buttons);
    resize(720, 480);

    connect(m_listingJob, &RemoteFolderListing::finished, this, &RemoteBrowserDialog::onListed);
    connect(m_list, &QTreeWidget::itemActivated, this, &RemoteBrowserDialog::onActivated);
    connect(m_list, &QTreeWidget::currentItemChanged, this, &RemoteBrowserDialog::updateButtons);
    connect(m_up, &QPushButton::clicked, this, &RemoteBrowserDialog::goUp);
    connect(m_path, &QLineEdit::returnPressed, this, &RemoteBrowserDialog::navigateToTyped);

    if (isOpenableTraceName(start.fileName())) {
        m_preselect = start.fileName();
        navigate(start.withPath(remoteParentPath(start.path())));
    } else {
        navigate(start);
    }
}

RemoteBrowserDialog::~RemoteBrowserDialog() = default;

void RemoteBrowserDialog::navigate(const RemoteLocation& folder)
{
    m_folder = folder;
    m_path->setText(folder.toString());
    m_list->clear();
    m_listing = true;
    m_status->setText(
        tr("Listing %1 on %2…")
            .arg(folder.path().isEmpty() ? tr("the home folder") : folder.path(), folder.endpoint()));
    updateButtons();
    m_listingJob->cancel();
    m_listingJob->start(folder);
}

void RemoteBrowserDialog::navigateToTyped()
{
    QString error;
    const auto typed = RemoteLocation::parse(m_path->text(), &error);
    if (!typed || !typed->isSsh()) {
        m_status->setText(typed ? tr("Only SSH locations can be browsed.") : error);
        return;
    }
    navigate(*typed);
}

void RemoteBrowserDialog::onListed(const RemoteFolder& folder, const QString& error)
{
    m_listing = false;
    if (!error.isEmpty()) {
        m_status->setText(error);
        updateButtons();
        emit listed();
        return;
    }
    m_folder = m_folder.withPath(folder.absolutePath);
    m_path->setText(m_folder.toString());
    const QFileIconProvider icons;
    const QLocale locale;
    int files = 0;
    for (const RemoteEntry& entry : folder.entries) {
        auto* item = new QTreeWidgetItem(m_list);
        item->setText(NameColumn, entry.name);
        item->setIcon(
            NameColumn, icons.icon(entry.isFolder ? QFileIconProvider::Folder : QFileIconProvider::File));
        item->setData(NameColumn, kIsFolderRole, entry.isFolder);
        if (!entry.isFolder) {
            item->setText(SizeColumn, locale.formattedDataSize(entry.size, 1));
            item->setTextAlignment(SizeColumn, Qt::AlignRight | Qt::AlignVCenter);
            ++files;
        }
        item->setText(ModifiedColumn, locale.toString(entry.modified(), QLocale::ShortFormat));
        if (entry.name == m_preselect) m_list->setCurrentItem(item);
    }
    m_preselect.clear();
    const qsizetype folders = folder.entries.size() - files;
    const QString fileCount = files == 1 ? tr("1 file") : tr("%1 files").arg(files);
    const QString folderCount = folders == 1 ? tr("1 folder") : tr("%1 folders").arg(folders);
    m_status->setText(files + folders == 0 ? tr("No reports, traces or folders here.")
                                           : tr("%1 that Sightline opens, %2").arg(fileCount, folderCount));
    updateButtons();
    emit listed();
}

void RemoteBrowserDialog::onActivated(QTreeWidgetItem* item)
{
    if (!item) return;
    const QString path = joinRemote(m_folder.path(), item->text(NameColumn));
    if (item->data(NameColumn, kIsFolderRole).toBool()) {
        navigate(m_folder.withPath(path));
        return;
    }
    accept();
}

void RemoteBrowserDialog::goUp()
{
    navigate(m_folder.withPath(remoteParentPath(m_folder.path())));
}

std::optional<RemoteLocation> RemoteBrowserDialog::selectedFile() const
{
    const QTreeWidgetItem* item = m_list->currentItem();
    if (!item || item->data(NameColumn, kIsFolderRole).toBool()) return std::nullopt;
    return m_folder.withPath(joinRemote(m_folder.path(), item->text(NameColumn)));
}

QString RemoteBrowserDialog::statusText() const
{
    return m_status->text();
}

void RemoteBrowserDialog::updateButtons()
{
    m_up->setEnabled(!m_listing && m_folder.path() != QLatin1String("/"));
    const QTreeWidgetItem* item = m_list->currentItem();
    m_open->setEnabled(!m_listing && item != nullptr);
}

} // namespace sightline::ui
