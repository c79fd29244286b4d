// File > Open Remote…: a location (ssh://[user@]host[:port]/path/file.rep, [user@]host:path or
// https://host/path/file.rep; the remote locations opened before are offered in the list), a
// Browse button for SSH hosts, and Open, which downloads the file into the cache with a progress
// bar and Cancel (RemoteFetch) and then accepts the dialog with the local copy. A failure shows
// its one sentence inside the dialog, which stays open for another try. Invariant: the dialog
// is accepted only with a complete local copy of the location it names.
#pragma once

#include "app/ui/remote/remote_cache.h"
#include "app/ui/remote/remote_fetch.h"

#include <QDialog>
#include <memory>

class QComboBox;
class QLabel;
class QProgressBar;
class QPushButton;

namespace sightline::ui {

class OpenRemoteDialog : public QDialog
{
    Q_OBJECT
public:
    OpenRemoteDialog(
        const QStringList& recentLocations, QWidget* parent = nullptr, RemoteCache cache = RemoteCache());
    ~OpenRemoteDialog() override;

    void setLocation(const QString& text);
    QString locationText() const;

    // After acceptance: the remote location (normalised) and its local copy.
    const QString& openedLocation() const { return m_openedLocation; }
    const QString& localPath() const { return m_localPath; }
    bool lastFromCache() const { return m_fromCache; }

    QString errorText() const;
    QProgressBar* progressBar() const { return m_progress; }
    RemoteFetch* currentFetch() const { return m_fetch.get(); }

public slots:
    void startOpening(); // Open
    void cancelOpening(); // Cancel during a download

signals:
    void fetchStarted(sightline::ui::RemoteFetch* fetch); // for observers (tests, status)
    void fetchEnded(const sightline::ui::FetchOutcome& outcome);

protected:
    void reject() override;

private:
    void onProgress(qint64 done, qint64 total);
    void onFinished(const FetchOutcome& outcome);
    void browse();
    void showError(const QString& text);
    void readyForAnotherTry(); // after a failure: focus on the location, Open the default again
    void setBusy(bool busy);

    RemoteCache m_cache;
    std::unique_ptr<RemoteFetch> m_fetch;
    QComboBox* m_location = nullptr;
    QPushButton* m_browse = nullptr;
    QLabel* m_error = nullptr;
    QLabel* m_state = nullptr;
    QProgressBar* m_progress = nullptr;
    QPushButton* m_open = nullptr;
    QPushButton* m_cancel = nullptr;
    QString m_openedLocation;
    QString m_localPath;
    bool m_fromCache = false;
};

} // namespace sightline::ui
