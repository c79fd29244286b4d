#include "views/summary/chart_panel.h"

#include "views/summary/qcustomplot_compat.h"

#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QToolButton>
#include <QVBoxLayout>

namespace sightline::views {
namespace {

void styleAxis(QCPAxis* axis, const QPalette& palette)
{
    const QColor text = palette.color(QPalette::WindowText);
    QColor grid = text;
    grid.setAlpha(40);
    axis->setBasePen(QPen(text, 1));
    axis->setTickPen(QPen(text, 1));
    axis->setSubTickPen(QPen(text, 1));
    axis->setTickLabelColor(text);
    axis->setLabelColor(text);
    axis->grid()->setPen(QPen(grid, 1, Qt::DotLine));
    axis->grid()->setZeroLinePen(Qt::NoPen);
}

void styleNote(QCPItemText* note)
{
    note->setPositionAlignment(Qt::AlignCenter);
    note->position->setType(QCPItemPosition::ptAxisRectRatio);
    note->position->setCoords(0.5, 0.5);
}

} // namespace

QColor chartColor(int index)
{
    static const QRgb kColors[]
        = {0x76b900, 0x2f7fd1, 0xe8882b, 0x9b59b6, 0x1abc9c, 0xd64541, 0x7f8c8d, 0xc9a800};
    return QColor(kColors[index % int(std::size(kColors))]);
}

ChartPanel::ChartPanel(const QString& title, QWidget* parent, ControlsRow row)
    : QFrame(parent)
{
    setFrameShape(QFrame::StyledPanel);
    m_title = new QLabel(title, this);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    auto* exportButton = new QToolButton(this);
    exportButton->setText(tr("Export PNG\u2026"));
    exportButton->setToolTip(tr("Save this chart as a PNG image"));
    connect(exportButton, &QToolButton::clicked, this, &ChartPanel::exportInteractively);

    m_controls = new QHBoxLayout;
    m_controls->setContentsMargins(0, 0, 0, 0);
    auto* header = new QHBoxLayout;
    header->addWidget(m_title);
    header->addStretch(1);
    if (row == ControlsRow::Title) header->addLayout(m_controls);
    header->addWidget(exportButton);

    m_plot = new QCustomPlot(this);
    m_plot->setMinimumSize(320, 220);
    m_plot->setBackground(palette().brush(QPalette::Base));
    m_plot->axisRect()->setBackground(palette().brush(QPalette::Base));
    for (QCPAxis* axis : {m_plot->xAxis, m_plot->yAxis, m_plot->xAxis2, m_plot->yAxis2})
        styleAxis(axis, palette());
    m_plot->legend->setBrush(palette().brush(QPalette::Base));
    m_plot->legend->setTextColor(palette().color(QPalette::WindowText));
    m_plot->legend->setBorderPen(QPen(palette().color(QPalette::Mid)));

    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(8, 6, 8, 8);
    layout->addLayout(header);
    if (row == ControlsRow::OwnRow) layout->addLayout(m_controls);
    layout->addWidget(m_plot, 1);
}

QString ChartPanel::title() const
{
    return m_title->text();
}

void ChartPanel::clear()
{
    m_plot->clearPlottables();
    m_plot->clearItems();
    m_plot->legend->setVisible(false);
}

void ChartPanel::showEmptyNote(const QString& text)
{
    auto* note = new QCPItemText(m_plot);
    styleNote(note);
    note->setText(text);
    note->setColor(palette().color(QPalette::PlaceholderText));
}

Status ChartPanel::exportPng(const QString& path) const
{
    // At the size shown, so the image is laid out exactly as on screen (a plot that was never
    // shown gets a sensible size instead).
    const bool shown = m_plot->width() >= 300 && m_plot->height() >= 200;
    const bool saved = shown ? m_plot->savePng(path) : m_plot->savePng(path, 800, 450);
    if (saved) return {};
    return Status::failure(
        tr("Could not write the chart to %1; check that its folder exists and is writable.")
            .arg(path)
            .toStdString());
}

void ChartPanel::exportInteractively()
{
    QString name = title().toLower();
    name.replace(QLatin1Char(' '), QLatin1Char('-'));
    const QString path = QFileDialog::getSaveFileName(
        this, tr("Export Chart"), name + QStringLiteral(".png"), tr("PNG images (*.png)"));
    if (path.isEmpty()) return;
    if (const Status written = exportPng(path); !written)
        QMessageBox::warning(this, tr("Export Chart"), QString::fromStdString(written.error()));
}

} // namespace sightline::views
