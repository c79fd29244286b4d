#include "app/ui/remote/open_remote_dialog.h"

#include "app/ui/remote/remote_browser_dialog.h"

#include <QComboBox>
#include <QDialogButtonBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QProgressBar>
#include <QPushButton>
#include <QVBoxLayout>

namespace sightline::ui {

namespace {
constexpr int kProgressSteps = 1000; // permille: sizes overflow an int
}

OpenRemoteDialog::OpenRemoteDialog(const QStringList& recentLocations, QWidget* parent, RemoteCache cache)
    : QDialog(parent)
    , m_cache(std::move(cache))
{
    setObjectName(QStringLiteral("openRemoteDialog"));
    setWindowTitle(tr("Open Remote Report"));

    m_location = new QComboBox(this);
    m_location->setObjectName(QStringLiteral("remoteLocationCombo"));
    m_location->setEditable(true);
    m_location->setInsertPolicy(QComboBox::NoInsert);
    m_location->addItems(recentLocations);
    m_location->setCurrentText(QString());
    m_location->lineEdit()->setPlaceholderText(QStringLiteral("ssh://user@gpu-server/home/user/run1.rep"));
    m_location->setMinimumWidth(640);
    m_browse = new QPushButton(tr("&Browse…"), this);
    m_browse->setObjectName(QStringLiteral("remoteBrowseButton"));
    auto* locationRow = new QHBoxLayout;
    locationRow->addWidget(m_location, 1);
    locationRow->addWidget(m_browse);

    // Two short lines, not wrapped: a wrapped label's height is only right once the dialog is shown.
    auto* help = new QLabel(
        tr("<small>ssh://[user@]host[:port]/path/file.rep &nbsp;·&nbsp; [user@]host:path/file.rep "
           "(from your home folder) &nbsp;·&nbsp; https://host/path/file.rep<br>"
           "SSH uses your ~/.ssh/config, keys and agent; Sightline never asks for or stores a "
           "password.</small>"),
        this);
    help->setObjectName(QStringLiteral("remoteHelp"));

    m_error = new QLabel(this);
    m_error->setObjectName(QStringLiteral("remoteError"));
    m_error->setWordWrap(true);
    m_error->setVisible(false);
    const bool dark = palette().color(QPalette::Window).lightness() < 128;
    m_error->setStyleSheet(
        QStringLiteral("color: %1;").arg(dark ? QStringLiteral("#ff8080") : QStringLiteral("#b01c1c")));

    m_state = new QLabel(this);
    m_state->setObjectName(QStringLiteral("remoteState"));
    m_progress = new QProgressBar(this);
    m_progress->setObjectName(QStringLiteral("remoteProgress"));
    m_progress->setRange(0, kProgressSteps);

    auto* buttons = new QDialogButtonBox(this);
    m_open = buttons->addButton(QDialogButtonBox::Open);
    m_open->setObjectName(QStringLiteral("remoteOpenButton"));
    m_cancel = buttons->addButton(QDialogButtonBox::Cancel);
    m_cancel->setObjectName(QStringLiteral("remoteCancelButton"));
    connect(m_open, &QPushButton::clicked, this, &OpenRemoteDialog::startOpening);
    connect(m_cancel, &QPushButton::clicked, this, &OpenRemoteDialog::reject);
    connect(m_browse, &QPushButton::clicked, this, &OpenRemoteDialog::browse);
    connect(m_location, &QComboBox::currentTextChanged, this, [this](const QString& text) {
        const auto parsed = RemoteLocation::parse(text);
        m_browse->setEnabled(!m_fetch && parsed && parsed->isSsh());
    });

    auto* column = new QVBoxLayout(this);
    auto* locationLabel = new QLabel(tr("&Location:"), this);
    locationLabel->setBuddy(m_location);
    column->addWidget(locationLabel);
    column->addLayout(locationRow);
    column->addWidget(help);
    column->addWidget(m_error);
    column->addWidget(m_state);
    column->addWidget(m_progress);
    column->addStretch();
    column->addWidget(buttons);
    setBusy(false);
    m_browse->setEnabled(false);
}

OpenRemoteDialog::~OpenRemoteDialog() = default;

void OpenRemoteDialog::setLocation(const QString& text)
{
    m_location->setCurrentText(text);
}

QString OpenRemoteDialog::locationText() const
{
    return m_location->currentText().trimmed();
}

QString OpenRemoteDialog::errorText() const
{
    return m_error->isVisible() ? m_error->text() : QString();
}

void OpenRemoteDialog::showError(const QString& text)
{
    m_error->setText(text);
    m_error->setVisible(!text.isEmpty());
}

void OpenRemoteDialog::setBusy(bool busy)
{
    m_location->setEnabled(!busy);
    m_open->setEnabled(!busy);
    m_progress->setVisible(busy);
    m_state->setVisible(busy);
    const auto parsed = RemoteLocation::parse(locationText());
    m_browse->setEnabled(!busy && parsed && parsed->isSsh());
}

void OpenRemoteDialog::startOpening()
{
    if (m_fetch) return;
    QString error;
    const auto location = RemoteLocation::parse(locationText(), &error);
    if (!location) {
        showError(error);
        return;
    }
    showError(QString());
    m_fetch = RemoteFetch::create(*location, m_cache);
    connect(m_fetch.get(), &RemoteFetch::stateChanged, m_state, &QLabel::setText);
    connect(m_fetch.get(), &RemoteFetch::progressed, this, &OpenRemoteDialog::onProgress);
    connect(m_fetch.get(), &RemoteFetch::finished, this, &OpenRemoteDialog::onFinished);
    m_progress->setRange(0, 0); // busy until the size is known
    m_progress->setFormat(QString());
    setBusy(true);
    emit fetchStarted(m_fetch.get());
    m_fetch->start();
}

void OpenRemoteDialog::cancelOpening()
{
    if (m_fetch) m_fetch->cancel();
}

void OpenRemoteDialog::reject()
{
    if (m_fetch) {
        cancelOpening(); // the first Cancel stops the download; the dialog stays
        return;
    }
    QDialog::reject();
}

void OpenRemoteDialog::onProgress(qint64 done, qint64 total)
{
    const QLocale locale;
    if (total <= 0) {
        m_progress->setRange(0, 0);
        m_state->setText(tr("Downloading… %1").arg(locale.formattedDataSize(done, 1)));
        return;
    }
    m_progress->setRange(0, kProgressSteps);
    m_progress->setValue(int(done * kProgressSteps / total));
    m_progress->setFormat(
        tr("%1 of %2").arg(locale.formattedDataSize(done, 1), locale.formattedDataSize(total, 1)));
    m_progress->setTextVisible(true);
}

void OpenRemoteDialog::onFinished(const FetchOutcome& outcome)
{
    // The fetcher is the sender: it is deleted once its signal has returned.
    RemoteFetch* fetch = m_fetch.release();
    fetch->deleteLater();
    setBusy(false);
    emit fetchEnded(outcome);
    switch (outcome.status) {
    case FetchOutcome::Status::Done:
        m_openedLocation = fetch->location().toString();
        m_localPath = outcome.localPath;
        m_fromCache = outcome.fromCache;
        accept();
        return;
    case FetchOutcome::Status::Failed:
        showError(outcome.error);
        readyForAnotherTry();
        return;
    case FetchOutcome::Status::Cancelled:
        showError(tr("The download was cancelled."));
        readyForAnotherTry();
        return;
    }
}

void OpenRemoteDialog::readyForAnotherTry()
{
    // While busy the field and Open were disabled, so the focus fell on Cancel, and a focused
    // button of a dialog is the one Enter presses: Enter would have closed the dialog. The focus
    // goes back to the location to fix, and Enter opens again.
    m_location->setFocus(Qt::OtherFocusReason);
    m_location->lineEdit()->selectAll();
    m_open->setDefault(true);
}

void OpenRemoteDialog::browse()
{
    const auto location = RemoteLocation::parse(locationText());
    if (!location || !location->isSsh()) return;
    RemoteBrowserDialog browser(*location, this);
    if (browser.exec() != QDialog::Accepted) return;
    if (const auto chosen = browser.selectedFile()) setLocation(chosen->toString());
}

} // namespace sightline::ui
