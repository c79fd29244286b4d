#include "app/ui/profile/environment_editor.h"

#include <QHBoxLayout>
#include <QHeaderView>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace sightline::ui {

namespace {
constexpr int kVisibleRows = 3;
}

EnvironmentEditor::EnvironmentEditor(QWidget* parent)
    : QWidget(parent)
{
    m_table = new QTableWidget(0, 2, this);
    m_table->setObjectName(QStringLiteral("environmentTable"));
    m_table->setHorizontalHeaderLabels({tr("Name"), tr("Value")});
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Interactive);
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setColumnWidth(0, 200);
    m_table->verticalHeader()->setVisible(false);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    const int rowHeight = m_table->verticalHeader()->defaultSectionSize();
    m_table->setFixedHeight(m_table->horizontalHeader()->sizeHint().height() + kVisibleRows * rowHeight + 4);

    auto* add = new QPushButton(tr("Add"), this);
    add->setObjectName(QStringLiteral("addEnvironmentButton"));
    m_remove = new QPushButton(tr("Remove"), this);
    m_remove->setObjectName(QStringLiteral("removeEnvironmentButton"));
    m_remove->setEnabled(false);
    auto* buttons = new QVBoxLayout;
    buttons->addWidget(add);
    buttons->addWidget(m_remove);
    buttons->addStretch();

    auto* row = new QHBoxLayout(this);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(m_table, 1);
    row->addLayout(buttons);

    connect(add, &QPushButton::clicked, this, [this] { addRow(); });
    connect(m_remove, &QPushButton::clicked, this, [this] {
        const int current = m_table->currentRow();
        if (current < 0) return;
        m_table->removeRow(current);
        emit changed();
    });
    connect(m_table, &QTableWidget::itemSelectionChanged, this,
        [this] { m_remove->setEnabled(m_table->currentRow() >= 0); });
    connect(m_table, &QTableWidget::itemChanged, this, &EnvironmentEditor::changed);
}

QList<EnvironmentVariable> EnvironmentEditor::variables() const
{
    QList<EnvironmentVariable> list;
    for (int row = 0; row < m_table->rowCount(); ++row) {
        const QTableWidgetItem* name = m_table->item(row, 0);
        const QTableWidgetItem* value = m_table->item(row, 1);
        EnvironmentVariable variable {
            name ? name->text().trimmed() : QString(), value ? value->text() : QString()};
        if (variable.name.isEmpty() && variable.value.isEmpty()) continue;
        list.append(variable);
    }
    return list;
}

void EnvironmentEditor::setVariables(const QList<EnvironmentVariable>& variables)
{
    const QSignalBlocker blocker(m_table);
    m_table->setRowCount(0);
    for (const EnvironmentVariable& variable : variables) {
        const int row = m_table->rowCount();
        m_table->insertRow(row);
        m_table->setItem(row, 0, new QTableWidgetItem(variable.name));
        m_table->setItem(row, 1, new QTableWidgetItem(variable.value));
    }
    m_remove->setEnabled(false);
    emit changed();
}

void EnvironmentEditor::addRow(const QString& name, const QString& value)
{
    const int row = m_table->rowCount();
    {
        const QSignalBlocker blocker(m_table);
        m_table->insertRow(row);
        m_table->setItem(row, 0, new QTableWidgetItem(name));
        m_table->setItem(row, 1, new QTableWidgetItem(value));
    }
    m_table->setCurrentCell(row, 0);
    if (name.isEmpty()) m_table->editItem(m_table->item(row, 0));
    emit changed();
}

} // namespace sightline::ui
