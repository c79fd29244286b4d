// Shell-style words, as a user types them in an arguments field or in SIGHTLINE_SSH_COMMAND,
// and back: splitting honours 'single' and "double" quotes and backslash escapes (no
// expansion of any kind); quoting gives a word that any POSIX shell reads back unchanged.
#pragma once

#include <QString>
#include <QStringList>

namespace sightline::ui {

// Splits `line` into words. An unterminated quote runs to the end of the line.
QStringList splitShellWords(const QString& line);

// Quotes `text` as one word for a POSIX shell ('...' with embedded quotes escaped).
QString shellQuote(const QString& text);

// `words` as one line a shell would split back into them; plain words are left unquoted.
QString joinShellWords(const QStringList& words);

} // namespace sightline::ui
