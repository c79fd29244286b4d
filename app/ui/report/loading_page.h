// What a report tab shows while its file is read: "Loading NAME…", a bar of the bytes read
// (then "Building indexes…" while the model indexes what it decoded) and Cancel.
#pragma once

#include <QWidget>

class QLabel;
class QProgressBar;

namespace sightline::ui {

class LoadingPage : public QWidget
{
    Q_OBJECT
public:
    explicit LoadingPage(QWidget* parent = nullptr);

    // A new read of `name` begins: the bar starts again.
    void start(const QString& name);
    void setProgress(qint64 bytesDone, qint64 bytesTotal);

signals:
    void cancelRequested();

private:
    QLabel* m_label = nullptr;
    QProgressBar* m_progress = nullptr;
};

} // namespace sightline::ui
