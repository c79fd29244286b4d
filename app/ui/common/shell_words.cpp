#include "app/ui/common/shell_words.h"

#include <QRegularExpression>

namespace sightline::ui {

QStringList splitShellWords(const QString& line)
{
    QStringList words;
    QString word;
    bool inWord = false;
    QChar quote; // '\'' or '"' while inside quotes
    for (qsizetype i = 0; i < line.size(); ++i) {
        const QChar c = line[i];
        if (quote == QLatin1Char('\'')) {
            if (c == quote)
                quote = QChar();
            else
                word += c;
            continue;
        }
        if (c == QLatin1Char('\\') && i + 1 < line.size()) {
            const QChar next = line[i + 1];
            // Inside double quotes a backslash escapes only what the shell lets it escape.
            if (quote.isNull() || QStringLiteral("\"\\$`").contains(next)) {
                word += next;
                ++i;
            } else {
                word += c;
            }
            inWord = true;
            continue;
        }
        if (quote == QLatin1Char('"')) {
            if (c == quote)
                quote = QChar();
            else
                word += c;
            continue;
        }
        if (c == QLatin1Char('\'') || c == QLatin1Char('"')) {
            quote = c;
            inWord = true;
        } else if (c.isSpace()) {
            if (inWord) words << word;
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (inWord) words << word;
    return words;
}

QString shellQuote(const QString& text)
{
    QString quoted = text;
    quoted.replace(QLatin1Char('\''), QLatin1String("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QString joinShellWords(const QStringList& words)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_@%+=:,./-]+$"));
    QStringList shown;
    for (const QString& word : words)
        shown << (plain.match(word).hasMatch() ? word : shellQuote(word));
    return shown.join(QLatin1Char(' '));
}

} // namespace sightline::ui
