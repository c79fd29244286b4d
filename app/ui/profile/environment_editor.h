// The environment-variables table of the Profile dialog: NAME | VALUE rows with Add and Remove.
// Invariant: variables() returns the rows in order, skipping rows whose name and value are both
// empty (a freshly added row the user left blank).
#pragma once

#include "app/ui/profile/profile_settings.h"

#include <QWidget>

class QTableWidget;
class QPushButton;

namespace sightline::ui {

class EnvironmentEditor : public QWidget
{
    Q_OBJECT
public:
    explicit EnvironmentEditor(QWidget* parent = nullptr);

    QList<EnvironmentVariable> variables() const;
    void setVariables(const QList<EnvironmentVariable>& variables);
    void addRow(const QString& name = {}, const QString& value = {}); // and starts editing the name

    QTableWidget* table() const { return m_table; }

signals:
    void changed();

private:
    QTableWidget* m_table = nullptr;
    QPushButton* m_remove = nullptr;
};

} // namespace sightline::ui
