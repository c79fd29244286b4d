// Catch2 printing of QString and QStringList, so that a failed comparison shows the text.
#pragma once

#include <QStringList>
#include <catch2/catch.hpp>

namespace Catch {

template <> struct StringMaker<QString>
{
    // append(), not "literal" + string: GCC 12 warns falsely (-Wrestrict) about the latter.
    static std::string convert(const QString& text)
    {
        return std::string("\"").append(text.toStdString()).append("\"");
    }
};

template <> struct StringMaker<QStringList>
{
    static std::string convert(const QStringList& list)
    {
        return std::string("[").append(list.join(QStringLiteral(" | ")).toStdString()).append("]");
    }
};

} // namespace Catch
