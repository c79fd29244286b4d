#include "app/ui/shell/empty_state_page.h"

#include <QFileInfo>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QUrl>
#include <QVBoxLayout>

namespace sightline::ui {

namespace {
constexpr int kRecentShown = 5;
constexpr int kMargin = 24;
} // namespace

EmptyStatePage::EmptyStatePage(QWidget* parent)
    : QWidget(parent)
    , m_recent(new QLabel(this))
{
    setObjectName(QStringLiteral("emptyStatePage"));
    auto* column = new QVBoxLayout(this);
    column->setContentsMargins(kMargin * 2, kMargin * 2, kMargin * 2, kMargin * 2);
    column->addStretch(2);

    auto* message = new QLabel(tr("Open a report (Ctrl+O) or drop one here"), this);
    message->setObjectName(QStringLiteral("emptyStateMessage"));
    message->setAlignment(Qt::AlignCenter);
    QFont large = message->font();
    large.setPointSizeF(large.pointSizeF() * 1.6);
    message->setFont(large);
    column->addWidget(message);

    auto* formats
        = new QLabel(tr("Sightline reports (.rep), Nsight Systems SQLite exports and PyTorch profiler "
                        "traces (.json, .json.gz)"),
            this);
    formats->setAlignment(Qt::AlignCenter);
    formats->setForegroundRole(QPalette::PlaceholderText);
    formats->setWordWrap(true);
    column->addWidget(formats);
    column->addSpacing(kMargin);

    auto* open = new QPushButton(tr("Open Report…"), this);
    open->setObjectName(QStringLiteral("emptyStateOpenButton"));
    connect(open, &QPushButton::clicked, this, &EmptyStatePage::openRequested);
    column->addWidget(open, 0, Qt::AlignHCenter);
    column->addSpacing(kMargin);

    m_recent->setAlignment(Qt::AlignCenter);
    m_recent->setTextFormat(Qt::RichText);
    m_recent->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
    connect(m_recent, &QLabel::linkActivated, this,
        [this](const QString& link) { emit recentRequested(QUrl(link).toLocalFile()); });
    column->addWidget(m_recent);
    column->addStretch(3);
}

void EmptyStatePage::setRecentFiles(const QStringList& paths)
{
    if (paths.isEmpty()) {
        m_recent->clear();
        return;
    }
    QString html = QStringLiteral("<p>") + tr("Recent reports:") + QStringLiteral("</p>");
    for (const QString& path : paths.mid(0, kRecentShown)) {
        html += QStringLiteral("<p><a href=\"%1\">%2</a></p>")
                    .arg(QUrl::fromLocalFile(path).toString().toHtmlEscaped(),
                        QFileInfo(path).fileName().toHtmlEscaped());
    }
    m_recent->setText(html);
}

void EmptyStatePage::setDropHighlighted(bool highlighted)
{
    m_dropHighlighted = highlighted;
    update();
}

void EmptyStatePage::paintEvent(QPaintEvent* /*event*/)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QColor ink
        = m_dropHighlighted ? palette().color(QPalette::Highlight) : palette().color(QPalette::Mid);
    QPen pen(ink, m_dropHighlighted ? 3 : 2, Qt::DashLine);
    painter.setPen(pen);
    if (m_dropHighlighted) {
        QColor wash = palette().color(QPalette::Highlight);
        wash.setAlpha(24);
        painter.setBrush(wash);
    }
    painter.drawRoundedRect(QRectF(rect()).adjusted(kMargin, kMargin, -kMargin, -kMargin), 12, 12);
}

} // namespace sightline::ui
