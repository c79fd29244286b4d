// Screenshots of the Call Stacks tests: a widget as shown once pending layouts have run (a tab
// just shown lays its scroll area out late), saved as PNG under $SIGHTLINE_SHOTS_DIR when that
// is set, for a look by eye; and a tree opened a few levels deep for them.
#pragma once

#include <QApplication>
#include <QDir>
#include <QImage>
#include <QSet>
#include <QTreeView>
#include <QWidget>
#include <catch2/catch.hpp>

namespace sightline::test {

inline QImage shot(QWidget& widget)
{
    QApplication::processEvents();
    return widget.grab().toImage();
}

// The distinct colours of an image.
inline int colourCount(const QImage& image)
{
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); ++y)
        for (int x = 0; x < image.width(); ++x)
            colours.insert(image.pixel(x, y));
    return int(colours.size());
}

// Expands `index` and the rows under it `depth` levels down, fetching each node's children as
// the view would when the row is clicked open.
inline void expandFetching(QTreeView& view, const QModelIndex& index, int depth)
{
    QAbstractItemModel* model = view.model();
    if (model->canFetchMore(index)) model->fetchMore(index);
    view.expand(index);
    if (depth <= 1) return;
    for (int row = 0; row < model->rowCount(index); ++row)
        expandFetching(view, model->index(row, 0, index), depth - 1);
}

inline void saveShot(const QImage& image, const char* name)
{
    const QString folder = qEnvironmentVariable("SIGHTLINE_SHOTS_DIR");
    if (folder.isEmpty()) return;
    QDir().mkpath(folder);
    REQUIRE(image.save(QDir(folder).filePath(QString::fromLatin1(name))));
}

} // namespace sightline::test
