#include "timeline/timeline_panel.h"

#include <QFontMetrics>
#include <QPainter>
#include <QScrollBar>
#include <QVBoxLayout>
#include <cmath>

#include "timeline/timeline_palette.h"
#include "timeline/timeline_view.h"

namespace ratelab::ui {

TimelinePanel::TimelinePanel(Session* session, PlaybackClock* clock, QWidget* parent)
    : QWidget(parent),
      view_(new TimelineView(session, clock, this)),
      scroll_bar_(new QScrollBar(Qt::Horizontal, this)) {
    scroll_bar_->setToolTip(tr("Scroll through time (Shift+wheel, or Shift+Left/Right)"));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->setSpacing(2);
    layout->addWidget(view_, 1);
    layout->addWidget(scroll_bar_);
    layout->addWidget(new TimelineLegend(this));
    connect(view_, &TimelineView::viewChanged, this, &TimelinePanel::syncScrollBar);
    connect(scroll_bar_, &QScrollBar::valueChanged, this, [this](int value) {
        if (!syncing_) {
            view_->setOffsetPixels(value);
        }
    });
}

void TimelinePanel::syncScrollBar() {
    const TimeAxis& axis = view_->axis();
    syncing_ = true;
    const double page = axis.width();
    const double total = axis.contentPixels();
    scroll_bar_->setRange(0, static_cast<int>(std::max(0.0, std::ceil(total - page))));
    scroll_bar_->setPageStep(static_cast<int>(page));
    scroll_bar_->setSingleStep(std::max(1, static_cast<int>(page / 20.0)));
    scroll_bar_->setValue(static_cast<int>(std::lround(axis.offsetPixels())));
    syncing_ = false;
}

TimelineLegend::TimelineLegend(QWidget* parent) : QWidget(parent) {
    setToolTip(tr("How the lanes draw each decision"));
}

QSize TimelineLegend::sizeHint() const {
    return {600, fontMetrics().height() + 8};
}

void TimelineLegend::paintEvent(QPaintEvent*) {
    namespace marks = timeline_palette;
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing, true);
    const QFontMetrics metrics = fontMetrics();
    const double size = 10.0;
    const double middle = height() / 2.0;
    double x = 10.0;
    const auto label = [&](const QString& text) {
        painter.setPen(palette().color(QPalette::WindowText));
        painter.drawText(QPointF(x, middle + metrics.ascent() / 2.0 - 1.0), text);
        x += metrics.horizontalAdvance(text) + 20.0;
    };
    marks::drawAccepted(painter, {x + size / 2, middle}, size);
    x += size + 6;
    label(tr("accepted"));
    marks::drawRejected(painter, {x + size / 2, middle}, size);
    x += size + 6;
    label(tr("rejected"));
    marks::drawPending(painter, {x + size / 2, middle}, size);
    x += size + 6;
    label(tr("not decided yet"));
    painter.setPen(QPen(marks::kDelay, 2.5));
    painter.drawLine(QPointF(x, middle), QPointF(x + 22, middle));
    marks::drawRelease(painter, {x + 22, middle}, 8.0);
    x += 32;
    label(tr("waiting in the queue"));
    QColor wash = marks::kBurstWithin;
    wash.setAlpha(60);
    painter.fillRect(QRectF(x, middle - 6, 22, 12), wash);
    x += 28;
    label(tr("worst span of W ticks"));
    wash = marks::kBurstOver;
    wash.setAlpha(70);
    painter.fillRect(QRectF(x, middle - 6, 22, 12), wash);
    x += 28;
    label(tr("… above L"));
    painter.setPen(QPen(palette().color(QPalette::Mid), 1.0, Qt::DashLine));
    painter.drawLine(QPointF(x, middle - 7), QPointF(x, middle + 7));
    x += 8;
    label(tr("boundary, every W ticks"));
}

}  // namespace ratelab::ui
