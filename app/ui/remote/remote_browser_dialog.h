// The remote file browser behind File > Open Remote… > Browse: lists a folder on an SSH host
// (folders and the files Sightline opens: .rep, .sqlite, .json, .json.gz) with size and
// modification time; double-click a folder to enter it, Up to leave it, double-click or Open a
// file to choose it. Listing runs in the background through ssh (RemoteFolderListing); a failure
// is shown as its one sentence in the dialog. Invariant: the newest listing request wins.
#pragma once

#include "app/ui/remote/remote_listing.h"
#include "app/ui/remote/remote_location.h"

#include <QDialog>
#include <optional>

class QLabel;
class QLineEdit;
class QPushButton;
class QTreeWidget;
class QTreeWidgetItem;

namespace sightline::ui {

class RemoteBrowserDialog : public QDialog
{
    Q_OBJECT
public:
    // `start`: an SSH location of a folder, or of a file (its folder is listed, the file selected).
    explicit RemoteBrowserDialog(const RemoteLocation& start, QWidget* parent = nullptr);
    ~RemoteBrowserDialog() override;

    void navigate(const RemoteLocation& folder);
    std::optional<RemoteLocation> selectedFile() const;

    const RemoteLocation& folder() const { return m_folder; }
    QTreeWidget* entryList() const { return m_list; }
    QString statusText() const;
    bool isListing() const { return m_listing; }

signals:
    void listed(); // a listing finished (successfully or not)

private:
    void onListed(const RemoteFolder& folder, const QString& error);
    void onActivated(QTreeWidgetItem* item);
    void goUp();
    void navigateToTyped();
    void updateButtons();

    RemoteLocation m_folder;
    QString m_preselect;
    RemoteFolderListing* m_listingJob = nullptr;
    bool m_listing = false;
    QLineEdit* m_path = nullptr;
    QPushButton* m_up = nullptr;
    QTreeWidget* m_list = nullptr;
    QLabel* m_status = nullptr;
    QPushButton* m_open = nullptr;
};

// The folder that holds `path` as the remote shell sees it: "/a/b" -> "/a", "~/x" -> "~",
// "x" -> "" (the home folder), "/" -> "/".
QString remoteParentPath(const QString& path);

} // namespace sightline::ui
