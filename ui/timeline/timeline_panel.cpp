#include "timeline/timeline_panel.h"

#include <QEvent>
#include <QFontMetrics>
#include <QPainter>
#include <QResizeEvent>
#include <QScrollBar>
#include <QVBoxLayout>
#include <algorithm>
#include <cmath>
#include <limits>

#include "session/session.h"
#include "timeline/timeline_palette.h"
#include "timeline/timeline_scene.h"
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
    legend_ = new TimelineLegend(this);
    layout->addWidget(legend_);
    connect(view_, &TimelineView::viewChanged, this, &TimelinePanel::syncScrollBar);
    const auto chooseLegend = [this](const std::shared_ptr<const SimulationResult>& result) {
        // The same requests have the same piles. (A weak pointer's owner is never that of a
        // later trace, even one at the same address.)
        if (!result || (!legend_trace_.owner_before(result->trace) &&
                        !result->trace.owner_before(legend_trace_) && !legend_trace_.expired()))
            return;
        legend_trace_ = result->trace;
        legend_->setShowsPiles(hasPile(*result->trace));
    };
    connect(session, &Session::resultChanged, this, chooseLegend);
    connect(view_, &TimelineView::keyColoursChanged, this,
            [this] { legend_->setKeys(view_->keyColours()); });
    legend_->setKeys(view_->keyColours());
    chooseLegend(session->result());  // the document open before the panel was made
    connect(scroll_bar_, &QScrollBar::valueChanged, this, [this](int value) {
        if (!syncing_) {
            view_->setOffsetPixels(value);
        }
    });
}

void TimelinePanel::changeEvent(QEvent* event) {
    QWidget::changeEvent(event);
    // Larger type (presentation mode) enlarges the legend's marks as it does the timeline's.
    if (event->type() == QEvent::FontChange)
        legend_->setMarkScale(view_->markScale());
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

namespace {

constexpr double kMargin = 10.0;        // before the first entry of a row
constexpr double kMarkGap = 6.0;        // between a mark and its words
constexpr double kEntrySpacing = 14.0;  // between one entry's words and the next mark
constexpr double kMarkSize = 10.0;

}  // namespace

TimelineLegend::TimelineLegend(QWidget* parent) : QWidget(parent) {
    setToolTip(tr("How the lanes draw each decision"));
    QSizePolicy policy(QSizePolicy::Preferred, QSizePolicy::Preferred);
    policy.setHeightForWidth(true);
    setSizePolicy(policy);
}

void TimelineLegend::setMarkScale(double scale) {
    if (scale == mark_scale_)
        return;
    mark_scale_ = scale;
    updateGeometry();
    update();
}

double TimelineLegend::markSize() const {
    return kMarkSize * mark_scale_;
}

void TimelineLegend::setShowsPiles(bool shows) {
    if (shows == shows_piles_)
        return;
    shows_piles_ = shows;
    updateGeometry();
    update();
}

void TimelineLegend::setKeys(const QList<QPair<QString, QColor>>& keys) {
    if (keys == keys_)
        return;
    keys_ = keys;
    updateGeometry();
    update();
}

QList<TimelineLegend::Entry> TimelineLegend::entries() const {
    QList<Entry> all = {
        {Mark::Accepted, tr("accepted")},
        {Mark::Rejected, tr("rejected")},
        {Mark::Pending, tr("not decided yet")},
    };
    if (shows_piles_)
        all.append(
            {Mark::Pile, tr("%1 or more on one tick, counted").arg(TimelineScene::kPileFrom)});
    all.append({
        {Mark::Delay, tr("waiting in the queue")},
        {Mark::WithinSpan, tr("worst span of W ticks")},
        {Mark::OverSpan, tr("more than L in W ticks")},
        {Mark::Boundary, tr("window boundary")},
    });
    for (const auto& [name, colour] : keys_)
        all.append({Mark::Key, tr("key %1").arg(name), colour});
    return all;
}

QStringList TimelineLegend::texts() const {
    QStringList texts;
    for (const Entry& entry : entries()) {
        texts << entry.text;
    }
    return texts;
}

int TimelineLegend::rowHeight() const {
    return fontMetrics().height() + 8;
}

QList<QRectF> TimelineLegend::entryRects(int width) const {
    const auto markWidth = [this](Mark mark) {
        switch (mark) {
            case Mark::Delay:
                return 26.0;
            case Mark::WithinSpan:
            case Mark::OverSpan:
                return 22.0;
            case Mark::Boundary:
                return 2.0;
            default:
                return markSize();
        }
    };
    const QFontMetricsF metrics(font());
    const double row_height = rowHeight();
    QList<QRectF> rects;
    double x = kMargin;
    double y = 0.0;
    for (const Entry& entry : entries()) {
        const double entry_width =
            markWidth(entry.mark) + kMarkGap + metrics.horizontalAdvance(entry.text);
        if (x > kMargin && x + entry_width > width - 2.0) {
            x = kMargin;
            y += row_height;
        }
        rects << QRectF(x, y, entry_width, row_height);
        x += entry_width + kEntrySpacing;
    }
    return rects;
}

QSize TimelineLegend::sizeHint() const {
    const QRectF last = entryRects(std::numeric_limits<int>::max()).constLast();
    return {static_cast<int>(std::ceil(last.right() + kMargin)), rowHeight()};
}

QSize TimelineLegend::minimumSizeHint() const {
    double widest = 0.0;
    for (const QRectF& rect : entryRects(0)) {
        widest = std::max(widest, rect.width());
    }
    // As many rows as the entries take at the present width: the main window's layout asks
    // widgets for their minimum, not their height for a width, and a second row of entries
    // must not come out of the lanes' room.
    const int height = isVisible() ? heightForWidth(width()) : rowHeight();
    return {static_cast<int>(std::ceil(widest + 2 * kMargin)), height};
}

void TimelineLegend::resizeEvent(QResizeEvent* event) {
    QWidget::resizeEvent(event);
    if (event->oldSize().width() < 0 ||
        heightForWidth(event->size().width()) != heightForWidth(event->oldSize().width()))
        updateGeometry();
}

int TimelineLegend::heightForWidth(int width) const {
    return static_cast<int>(std::ceil(entryRects(width).constLast().bottom()));
}

void TimelineLegend::paintMark(QPainter& painter, const Entry& entry, QPointF left_middle) const {
    namespace marks = timeline_palette;
    const double x = left_middle.x();
    const double middle = left_middle.y();
    const QPointF centre(x + markSize() / 2, middle);
    switch (entry.mark) {
        case Mark::Accepted:
            marks::drawAccepted(painter, centre, markSize());
            break;
        case Mark::Rejected:
            marks::drawRejected(painter, centre, markSize());
            break;
        case Mark::Pending:
            marks::drawPending(painter, centre, markSize());
            break;
        case Mark::Pile:
            // A pile's bar as the lanes draw it: accepted share up, rejected share down.
            painter.fillRect(QRectF(x + 3, middle - 7, 4, 7), marks::kAccepted);
            painter.fillRect(QRectF(x + 3, middle, 4, 5), marks::kRejected);
            painter.setPen(QPen(palette().color(QPalette::Mid), 1.0));
            painter.drawLine(QPointF(x, middle), QPointF(x + markSize(), middle));
            break;
        case Mark::Delay:
            painter.setPen(QPen(marks::kDelay, 2.5));
            painter.drawLine(QPointF(x, middle), QPointF(x + 22, middle));
            marks::drawRelease(painter, {x + 22, middle}, 8.0);
            break;
        case Mark::WithinSpan: {
            QColor wash = marks::kBurstWithin;
            wash.setAlpha(60);
            painter.fillRect(QRectF(x, middle - 6, 22, 12), wash);
            break;
        }
        case Mark::OverSpan:
            // The band as the lanes paint it, edged so that the small sample reads as a patch.
            painter.fillRect(QRectF(x, middle - 6, 22, 12), marks::overLimitBrush());
            painter.setPen(QPen(marks::kBurstOver, 1.0));
            painter.setBrush(Qt::NoBrush);
            painter.drawRect(QRectF(x + 0.5, middle - 5.5, 21, 11));
            break;
        case Mark::Boundary:
            painter.setPen(QPen(palette().color(QPalette::Mid), 1.0, Qt::DashLine));
            painter.drawLine(QPointF(x + 1, middle - 7), QPointF(x + 1, middle + 7));
            break;
        case Mark::Key:
            // A request's box in the key's colour, as the trace row draws it.
            painter.setPen(QPen(entry.colour.darker(130), 1.0));
            painter.setBrush(entry.colour);
            painter.drawRoundedRect(QRectF(x, middle - 6, markSize(), 12), 2.5, 2.5);
            break;
    }
}

void TimelineLegend::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing, true);
    const QFontMetricsF metrics(font());
    const QList<Entry> all = entries();
    const QList<QRectF> rects = entryRects(width());
    for (qsizetype i = 0; i < all.size(); ++i) {
        const QRectF& rect = rects[i];
        const double middle = rect.center().y();
        paintMark(painter, all[i], {rect.left(), middle});
        painter.setPen(palette().color(QPalette::WindowText));
        const double text_left = rect.right() - metrics.horizontalAdvance(all[i].text);
        painter.drawText(QPointF(text_left, middle + metrics.ascent() / 2.0 - 1.0), all[i].text);
    }
}

}  // namespace ratelab::ui
