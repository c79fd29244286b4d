// Tools > Profile Application… (Ctrl+Shift+P): the settings of a `sightline profile` run with
// an inline message under each field that has a problem, then Start, a live pane with the
// program's output and the collector's progress, and Stop. The launcher runs as a child
// process (ProfileRun), never inside the viewer. When a report is written, `reportReady` names
// it (the main window opens it in a new tab). The dialog is modeless; closing it while a run
// is in progress stops the run gracefully first. Invariants: Start is enabled only when no
// field has a blocking problem and no run is in progress; the settings fields are read-only
// during a run; settings are saved per executable when a run starts.
#pragma once

#include "app/ui/profile/profile_checks.h"
#include "app/ui/profile/profile_settings.h"

#include <QDialog>
#include <memory>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace sightline::ui {

class EnvironmentEditor;
class ProfileRun;
class ProfileRunPane;
struct ProfileOutcome;

class ProfileDialog : public QDialog
{
    Q_OBJECT
public:
    // `sightlinePath`: the `sightline` executable; findSightlineExecutable() when empty.
    explicit ProfileDialog(QWidget* parent = nullptr, QString sightlinePath = {});
    ~ProfileDialog() override;

    ProfileSettings settings() const;
    void setSettings(const ProfileSettings& settings);
    // Fills the fields with the settings last used for `executable` (defaults when none).
    void loadSettingsFor(const QString& executable);

    const ProfileProblems& problems() const { return m_problems; }
    ProfileRun* run() const { return m_run.get(); }
    ProfileRunPane* runPane() const { return m_pane; }
    QPushButton* startButton() const { return m_start; }
    QPushButton* stopButton() const { return m_stop; }

public slots:
    void startProfiling();
    void stopProfiling();

signals:
    void reportReady(const QString& path);

protected:
    void reject() override;

private:
    QWidget* buildTargetSection();
    QWidget* buildCollectionSection();
    // A form row; with `problemName`, also the inline message label under the field (returned).
    QLabel* addFieldRow(
        QFormLayout* form, const QString& text, QWidget* field, QWidget* buddy, const char* problemName);
    void revalidate();
    void setRunning(bool running);
    void onRunFinished(const ProfileOutcome& outcome);
    void chooseExecutable();
    void chooseWorkingDirectory();
    void chooseOutputFile();

    QString m_sightline;
    ProfileProblems m_problems;
    std::unique_ptr<ProfileRun> m_run;
    QString m_loadedExecutable;

    QLineEdit* m_executable = nullptr;
    QLineEdit* m_arguments = nullptr;
    QLineEdit* m_workingDirectory = nullptr;
    EnvironmentEditor* m_environment = nullptr;
    QCheckBox* m_cuda = nullptr;
    QCheckBox* m_nvtx = nullptr;
    QCheckBox* m_osrt = nullptr;
    QSpinBox* m_threshold = nullptr;
    QComboBox* m_capture = nullptr;
    QLineEdit* m_nvtxRange = nullptr;
    QDoubleSpinBox* m_delay = nullptr;
    QDoubleSpinBox* m_duration = nullptr;
    QLineEdit* m_output = nullptr;

    QLabel* m_executableProblem = nullptr;
    QLabel* m_workingDirectoryProblem = nullptr;
    QLabel* m_environmentProblem = nullptr;
    QLabel* m_traceProblem = nullptr;
    QLabel* m_captureProblem = nullptr;
    QLabel* m_outputProblem = nullptr;
    QLabel* m_collectorProblem = nullptr;

    QWidget* m_settingsArea = nullptr;
    ProfileRunPane* m_pane = nullptr;
    QPushButton* m_start = nullptr;
    QPushButton* m_stop = nullptr;
    QPushButton* m_close = nullptr;
};

} // namespace sightline::ui
