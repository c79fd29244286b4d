// The keyboard help dialog (F1): every key of the timeline and its mouse gestures, generated
// from the key table in timeline_keys.h.
#pragma once

#include <QDialog>

namespace sightline::views {

class KeyboardHelpDialog : public QDialog
{
    Q_OBJECT
public:
    explicit KeyboardHelpDialog(QWidget* parent = nullptr);
};

} // namespace sightline::views
