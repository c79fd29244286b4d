#include "app/ui/shell/app_icon.h"

#include <QPainter>
#include <QPixmap>

namespace sightline::ui {

namespace {

// The drawing on a 64x64 grid; the painter scales it to the requested size.
void paintIcon(QPainter& painter)
{
    painter.setRenderHint(QPainter::Antialiasing);
    painter.setPen(Qt::NoPen);
    painter.setBrush(QColor(0x1d, 0x27, 0x33));
    painter.drawRoundedRect(QRectF(2, 2, 60, 60), 12, 12);

    struct Bar
    {
        QRectF rect;
        QColor colour;
    };
    const Bar bars[] = {
        {{10, 14, 16, 8}, QColor(0x76, 0xb9, 0x00)}, // kernels
        {{30, 14, 24, 8}, QColor(0x76, 0xb9, 0x00)},
        {{10, 28, 10, 8}, QColor(0x3d, 0x8b, 0xf0)}, // memory copies
        {{24, 28, 12, 8}, QColor(0xf0, 0x8c, 0x2e)},
        {{10, 42, 30, 8}, QColor(0xb0, 0x7c, 0xe8)}, // an NVTX range
        {{44, 42, 10, 8}, QColor(0x3d, 0x8b, 0xf0)},
    };
    for (const Bar& bar : bars) {
        painter.setBrush(bar.colour);
        painter.drawRoundedRect(bar.rect, 2, 2);
    }
    painter.setBrush(QColor(0xff, 0xff, 0xff));
    painter.drawRect(QRectF(39, 8, 3, 48));
}

} // namespace

QIcon appIcon()
{
    QIcon icon;
    for (const int side : {16, 24, 32, 48, 64, 128, 256}) {
        QPixmap pixmap(side, side);
        pixmap.fill(Qt::transparent);
        QPainter painter(&pixmap);
        painter.scale(side / 64.0, side / 64.0);
        paintIcon(painter);
        painter.end();
        icon.addPixmap(pixmap);
    }
    return icon;
}

} // namespace sightline::ui
