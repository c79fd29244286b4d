#include "app/ui/profile/profile_dialog.h"

#include "app/ui/profile/environment_editor.h"
#include "app/ui/profile/profile_run.h"
#include "app/ui/profile/profile_run_pane.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSpinBox>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sightline::ui {

namespace {

constexpr double kLongestSeconds = 7 * 24 * 3600.0;

QWidget* withButton(QWidget* field, QPushButton* button)
{
    auto* row = new QWidget;
    auto* layout = new QHBoxLayout(row);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(field, 1);
    layout->addWidget(button);
    return row;
}

QDoubleSpinBox* secondsBox(const QString& zeroMeans, const char* objectName)
{
    auto* box = new QDoubleSpinBox;
    box->setObjectName(QLatin1String(objectName));
    box->setRange(0, kLongestSeconds);
    box->setDecimals(1);
    box->setSuffix(QStringLiteral(" s"));
    box->setSpecialValueText(zeroMeans);
    box->setMinimumWidth(150);
    return box;
}

void showProblem(QLabel* label, const QString& text, bool warning = false)
{
    const bool dark = label->palette().color(QPalette::Window).lightness() < 128;
    const QString colour = warning ? (dark ? QStringLiteral("#e0b070") : QStringLiteral("#8a5200"))
                                   : (dark ? QStringLiteral("#ff8080") : QStringLiteral("#b01c1c"));
    label->setStyleSheet(QStringLiteral("color: %1;").arg(colour));
    label->setText(text);
    label->setVisible(!text.isEmpty());
}

} // namespace

ProfileDialog::ProfileDialog(QWidget* parent, QString sightlinePath)
    : QDialog(parent)
    , m_sightline(sightlinePath.isEmpty() ? findSightlineExecutable() : std::move(sightlinePath))
{
    setObjectName(QStringLiteral("profileDialog"));
    setWindowTitle(tr("Profile Application"));
    setModal(false);

    m_settingsArea = new QWidget(this);
    auto* settingsColumn = new QVBoxLayout(m_settingsArea);
    settingsColumn->setContentsMargins(0, 0, 0, 0);
    settingsColumn->addWidget(buildTargetSection());
    settingsColumn->addWidget(buildCollectionSection());

    m_collectorProblem = new QLabel(this);
    m_collectorProblem->setObjectName(QStringLiteral("collectorProblem"));
    m_collectorProblem->setWordWrap(true);

    auto* runBox = new QGroupBox(tr("Run"), this);
    m_pane = new ProfileRunPane(runBox);
    auto* runLayout = new QVBoxLayout(runBox);
    runLayout->addWidget(m_pane);

    auto* buttons = new QDialogButtonBox(this);
    m_start = buttons->addButton(tr("&Start"), QDialogButtonBox::ActionRole);
    m_start->setObjectName(QStringLiteral("startButton"));
    m_start->setDefault(true);
    m_stop = buttons->addButton(tr("S&top"), QDialogButtonBox::ActionRole);
    m_stop->setObjectName(QStringLiteral("stopButton"));
    m_stop->setToolTip(tr("Ends the collection: the program is sent SIGINT (like Ctrl+C) and the report is "
                          "still written. Press again to send SIGTERM, a third time to kill it."));
    m_close = buttons->addButton(QDialogButtonBox::Close);
    connect(m_start, &QPushButton::clicked, this, &ProfileDialog::startProfiling);
    connect(m_stop, &QPushButton::clicked, this, &ProfileDialog::stopProfiling);
    connect(m_close, &QPushButton::clicked, this, &ProfileDialog::reject);

    auto* column = new QVBoxLayout(this);
    column->addWidget(m_settingsArea);
    column->addWidget(m_collectorProblem);
    column->addWidget(runBox, 1);
    column->addWidget(buttons);

    resize(820, 900);
    setRunning(false);
    // The program profiled last, with its settings; the defaults on first use.
    const QString last = lastProfiledExecutable();
    setSettings(last.isEmpty() ? ProfileSettings() : loadProfileSettings(last));
}

ProfileDialog::~ProfileDialog() = default;

QLabel* ProfileDialog::addFieldRow(
    QFormLayout* form, const QString& text, QWidget* field, QWidget* buddy, const char* problemName)
{
    auto* label = new QLabel(text);
    label->setBuddy(buddy);
    if (!problemName) {
        form->addRow(label, field);
        return nullptr;
    }
    // The message sits right under its field, shown only when there is a problem.
    auto* problem = new QLabel;
    problem->setObjectName(QLatin1String(problemName));
    problem->setWordWrap(true);
    problem->setVisible(false);
    auto* cell = new QWidget;
    auto* column = new QVBoxLayout(cell);
    column->setContentsMargins(0, 0, 0, 0);
    column->setSpacing(2);
    column->addWidget(field);
    column->addWidget(problem);
    form->addRow(label, cell);
    return problem;
}

QWidget* ProfileDialog::buildTargetSection()
{
    auto* box = new QGroupBox(tr("Program"));
    auto* form = new QFormLayout(box);

    m_executable = new QLineEdit;
    m_executable->setObjectName(QStringLiteral("executableEdit"));
    m_executable->setPlaceholderText(tr("a path, or a program in PATH such as python3"));
    auto* browseExecutable = new QPushButton(tr("Browse…"));
    connect(browseExecutable, &QPushButton::clicked, this, &ProfileDialog::chooseExecutable);
    m_executableProblem = addFieldRow(form, tr("E&xecutable:"), withButton(m_executable, browseExecutable),
        m_executable, "executableProblem");

    m_arguments = new QLineEdit;
    m_arguments->setObjectName(QStringLiteral("argumentsEdit"));
    m_arguments->setPlaceholderText(tr("arguments, quoted as in a shell: train.py --epochs 2 \"a b\""));
    addFieldRow(form, tr("&Arguments:"), m_arguments, m_arguments, nullptr);

    m_workingDirectory = new QLineEdit;
    m_workingDirectory->setObjectName(QStringLiteral("workingDirectoryEdit"));
    m_workingDirectory->setPlaceholderText(tr("the program's folder"));
    auto* browseFolder = new QPushButton(tr("Browse…"));
    connect(browseFolder, &QPushButton::clicked, this, &ProfileDialog::chooseWorkingDirectory);
    m_workingDirectoryProblem = addFieldRow(form, tr("&Working directory:"),
        withButton(m_workingDirectory, browseFolder), m_workingDirectory, "workingDirectoryProblem");

    m_environment = new EnvironmentEditor;
    m_environmentProblem
        = addFieldRow(form, tr("E&nvironment:"), m_environment, m_environment->table(), "environmentProblem");

    connect(m_executable, &QLineEdit::textChanged, this, &ProfileDialog::revalidate);
    // Another program: its remembered settings replace the fields (none remembered: they stay).
    connect(m_executable, &QLineEdit::editingFinished, this, [this] {
        const QString executable = m_executable->text().trimmed();
        if (executable == m_loadedExecutable) return;
        m_loadedExecutable = executable;
        if (hasProfileSettings(executable)) loadSettingsFor(executable);
    });
    connect(m_workingDirectory, &QLineEdit::textChanged, this, &ProfileDialog::revalidate);
    connect(m_environment, &EnvironmentEditor::changed, this, &ProfileDialog::revalidate);
    return box;
}

QWidget* ProfileDialog::buildCollectionSection()
{
    auto* box = new QGroupBox(tr("Collection"));
    auto* form = new QFormLayout(box);

    m_cuda = new QCheckBox(tr("CUDA"));
    m_cuda->setObjectName(QStringLiteral("traceCudaCheck"));
    m_nvtx = new QCheckBox(tr("NVTX"));
    m_nvtx->setObjectName(QStringLiteral("traceNvtxCheck"));
    m_osrt = new QCheckBox(tr("OS runtime, calls longer than"));
    m_osrt->setObjectName(QStringLiteral("traceOsrtCheck"));
    m_threshold = new QSpinBox;
    m_threshold->setObjectName(QStringLiteral("osrtThresholdSpin"));
    m_threshold->setRange(0, 1000000000);
    m_threshold->setSingleStep(1000);
    m_threshold->setSuffix(QStringLiteral(" ns"));
    auto* trace = new QWidget;
    auto* traceRow = new QHBoxLayout(trace);
    traceRow->setContentsMargins(0, 0, 0, 0);
    for (QWidget* widget : std::initializer_list<QWidget*> {m_cuda, m_nvtx, m_osrt, m_threshold})
        traceRow->addWidget(widget);
    traceRow->addStretch();
    m_traceProblem = addFieldRow(form, tr("T&race:"), trace, m_cuda, "traceProblem");

    m_capture = new QComboBox;
    m_capture->setObjectName(QStringLiteral("captureCombo"));
    m_capture->addItem(tr("None: the whole run"), int(CaptureRange::None));
    m_capture->addItem(tr("cudaProfilerStart / Stop"), int(CaptureRange::CudaProfilerApi));
    m_capture->addItem(tr("NVTX range"), int(CaptureRange::NvtxRange));
    m_nvtxRange = new QLineEdit;
    m_nvtxRange->setObjectName(QStringLiteral("nvtxRangeEdit"));
    m_nvtxRange->setPlaceholderText(tr("RANGE or RANGE@DOMAIN"));
    auto* capture = new QWidget;
    auto* captureRow = new QHBoxLayout(capture);
    captureRow->setContentsMargins(0, 0, 0, 0);
    captureRow->addWidget(m_capture);
    captureRow->addWidget(m_nvtxRange, 1);
    m_captureProblem = addFieldRow(form, tr("&Capture range:"), capture, m_capture, "captureProblem");

    m_delay = secondsBox(tr("none"), "delaySpin");
    m_duration = secondsBox(tr("until the program ends"), "durationSpin");
    auto* timing = new QWidget;
    auto* timingRow = new QHBoxLayout(timing);
    timingRow->setContentsMargins(0, 0, 0, 0);
    timingRow->addWidget(m_delay);
    timingRow->addSpacing(16);
    auto* durationLabel = new QLabel(tr("D&uration:"));
    durationLabel->setBuddy(m_duration);
    timingRow->addWidget(durationLabel);
    timingRow->addWidget(m_duration);
    timingRow->addStretch();
    addFieldRow(form, tr("&Delay:"), timing, m_delay, nullptr);

    m_output = new QLineEdit;
    m_output->setObjectName(QStringLiteral("outputEdit"));
    auto* browseOutput = new QPushButton(tr("Browse…"));
    connect(browseOutput, &QPushButton::clicked, this, &ProfileDialog::chooseOutputFile);
    m_outputProblem = addFieldRow(
        form, tr("&Output file:"), withButton(m_output, browseOutput), m_output, "outputProblem");

    for (QCheckBox* check : {m_cuda, m_nvtx, m_osrt})
        connect(check, &QCheckBox::toggled, this, &ProfileDialog::revalidate);
    connect(m_capture, &QComboBox::currentIndexChanged, this, &ProfileDialog::revalidate);
    connect(m_nvtxRange, &QLineEdit::textChanged, this, &ProfileDialog::revalidate);
    connect(m_output, &QLineEdit::textChanged, this, &ProfileDialog::revalidate);
    return box;
}

ProfileSettings ProfileDialog::settings() const
{
    ProfileSettings s;
    s.executable = m_executable->text().trimmed();
    s.arguments = m_arguments->text();
    s.workingDirectory = m_workingDirectory->text().trimmed();
    s.environment = m_environment->variables();
    s.traceCuda = m_cuda->isChecked();
    s.traceNvtx = m_nvtx->isChecked();
    s.traceOsrt = m_osrt->isChecked();
    s.osrtThresholdNs = m_threshold->value();
    s.captureRange = CaptureRange(m_capture->currentData().toInt());
    s.nvtxRange = m_nvtxRange->text().trimmed();
    s.delaySeconds = m_delay->value();
    s.durationSeconds = m_duration->value();
    s.outputFile = m_output->text().trimmed();
    return s;
}

void ProfileDialog::setSettings(const ProfileSettings& s)
{
    m_loadedExecutable = s.executable;
    m_executable->setText(s.executable);
    m_arguments->setText(s.arguments);
    m_workingDirectory->setText(s.workingDirectory);
    m_environment->setVariables(s.environment);
    m_cuda->setChecked(s.traceCuda);
    m_nvtx->setChecked(s.traceNvtx);
    m_osrt->setChecked(s.traceOsrt);
    m_threshold->setValue(int(std::min<qint64>(s.osrtThresholdNs, m_threshold->maximum())));
    m_capture->setCurrentIndex(m_capture->findData(int(s.captureRange)));
    m_nvtxRange->setText(s.nvtxRange);
    m_delay->setValue(s.delaySeconds);
    m_duration->setValue(s.durationSeconds);
    m_output->setText(s.outputFile);
    revalidate();
}

void ProfileDialog::loadSettingsFor(const QString& executable)
{
    setSettings(loadProfileSettings(executable));
}

void ProfileDialog::revalidate()
{
    const ProfileSettings s = settings();
    m_problems = checkProfileSettings(s, m_sightline);
    showProblem(m_executableProblem, m_problems.executable);
    showProblem(m_workingDirectoryProblem, m_problems.workingDirectory);
    showProblem(m_environmentProblem, m_problems.environment);
    showProblem(m_traceProblem, m_problems.trace);
    showProblem(m_captureProblem, m_problems.capture);
    showProblem(m_outputProblem, m_problems.output.isEmpty() ? m_problems.outputWarning : m_problems.output,
        m_problems.output.isEmpty());
    showProblem(m_collectorProblem, m_problems.collector);
    m_threshold->setEnabled(s.traceOsrt);
    m_nvtxRange->setEnabled(s.captureRange == CaptureRange::NvtxRange);
    m_output->setPlaceholderText(
        m_problems.workingDirectory.isEmpty() ? tr("automatic: %1").arg(s.effectiveOutputFile()) : QString());
    const bool running = m_run && m_run->isRunning();
    m_start->setEnabled(!running && !m_problems.blocking());
}

void ProfileDialog::setRunning(bool running)
{
    m_settingsArea->setEnabled(!running);
    m_stop->setEnabled(running);
    m_start->setEnabled(!running && !m_problems.blocking());
}

void ProfileDialog::startProfiling()
{
    revalidate();
    if (m_problems.blocking() || (m_run && m_run->isRunning())) return;
    const ProfileSettings s = settings();
    saveProfileSettings(s);
    m_run = std::make_unique<ProfileRun>(m_sightline);
    m_pane->clear();
    m_pane->follow(m_run.get());
    connect(m_run.get(), &ProfileRun::finished, this, &ProfileDialog::onRunFinished);
    setRunning(true);
    m_run->start(s, !m_problems.outputWarning.isEmpty());
}

void ProfileDialog::stopProfiling()
{
    if (m_run) m_run->stop();
}

void ProfileDialog::onRunFinished(const ProfileOutcome& outcome)
{
    setRunning(false);
    revalidate(); // the report now exists: the automatic name moves on
    if (outcome.succeeded) emit reportReady(outcome.reportPath);
}

void ProfileDialog::reject()
{
    // Close, Escape and the window's close button all come here (QDialog::closeEvent calls
    // reject()): a run is stopped gracefully, and the report it writes still opens when done.
    if (m_run && m_run->isRunning()) stopProfiling();
    QDialog::reject();
}

void ProfileDialog::chooseExecutable()
{
    const QString start = QFileInfo(resolveExecutable(settings())).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Program to Profile"), start);
    if (path.isEmpty()) return;
    m_executable->setText(path);
    m_loadedExecutable = path;
    if (hasProfileSettings(path)) loadSettingsFor(path);
}

void ProfileDialog::chooseWorkingDirectory()
{
    const QString path = QFileDialog::getExistingDirectory(
        this, tr("Working Directory"), settings().effectiveWorkingDirectory());
    if (!path.isEmpty()) m_workingDirectory->setText(path);
}

void ProfileDialog::chooseOutputFile()
{
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Report File"), settings().effectiveOutputFile(), tr("Sightline reports (*.rep)"));
    if (!path.isEmpty()) m_output->setText(path);
}

} // namespace sightline::ui
