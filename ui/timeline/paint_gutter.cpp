#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>

#include "charts/algorithm_names.h"
#include "timeline/timeline_painter.h"
#include "timeline/timeline_palette.h"
#include "timeline/timeline_scene.h"

namespace ratelab::ui {

namespace {

// The translation context of this file's texts, declared so that lupdate files them under it.
class TimelineText {
    Q_DECLARE_TR_FUNCTIONS(Timeline)
};

// Short enough for the gutter: 947, 12.3k, 4.5M.
QString compact(std::int64_t value) {
    if (value < 10'000) {
        return QString::number(value);
    }
    if (value < 10'000'000) {
        return QString::number(static_cast<double>(value) / 1e3, 'f', 1) + QLatin1Char('k');
    }
    return QString::number(static_cast<double>(value) / 1e6, 'f', 1) + QLatin1Char('M');
}

// A row name in bold with a smaller second line under it, which starts with `badge` in a
// rounded frame when there is one.
void paintLabel(QPainter& painter, const TimelineScene& scene, const QRectF& row,
                const QString& title, const QString& detail, const QColor& detail_colour,
                const QString& badge = {}) {
    const QRectF area = row.adjusted(10.0, 0.0, -6.0, 0.0);
    QFont bold = scene.font;
    bold.setBold(true);
    QFont small = scene.font;
    small.setPointSizeF(std::max(6.0, scene.font.pointSizeF() * 0.85));
    const QFontMetricsF bold_metrics(bold);
    const QFontMetricsF small_metrics(small);
    const bool two_lines = (!detail.isEmpty() || !badge.isEmpty()) &&
                           bold_metrics.height() + small_metrics.height() <= row.height() - 4.0;
    const double total = bold_metrics.height() + (two_lines ? small_metrics.height() : 0.0);
    const double top = area.center().y() - total / 2.0;
    // Eliding lays a text out: only texts known (from a kept width) to fit skip it.
    const auto fitted = [&](const QFont& font, const QFontMetricsF& metrics, const QString& text) {
        return scene.textWidth(font, text) <= area.width()
                   ? text
                   : metrics.elidedText(text, Qt::ElideRight, area.width());
    };
    painter.setFont(bold);
    painter.setPen(scene.palette.color(QPalette::WindowText));
    painter.drawText(QRectF(area.left(), top, area.width(), bold_metrics.height()),
                     Qt::AlignLeft | Qt::AlignVCenter, fitted(bold, bold_metrics, title));
    if (two_lines) {
        painter.setFont(small);
        QRectF line(area.left(), top + bold_metrics.height(), area.width(), small_metrics.height());
        if (!badge.isEmpty()) {
            // The library a preset lane reproduces, framed like a tag, before the counts.
            const double width = std::min(area.width(), scene.textWidth(small, badge) + 8.0);
            const QRectF frame(line.left(), line.top() + 1.0, width, line.height() - 1.0);
            painter.setPen(QPen(scene.palette.color(QPalette::Mid), 1.0));
            painter.setBrush(scene.palette.color(QPalette::AlternateBase));
            painter.drawRoundedRect(frame, 3.0, 3.0);
            painter.setPen(scene.palette.color(QPalette::WindowText));
            painter.drawText(frame.adjusted(4.0, 0.0, -4.0, 0.0), Qt::AlignLeft | Qt::AlignVCenter,
                             small_metrics.elidedText(badge, Qt::ElideRight, width - 8.0));
            line.setLeft(frame.right() + 5.0);
        }
        painter.setPen(detail_colour);
        if (line.width() > small_metrics.averageCharWidth() * 3.0) {
            painter.drawText(line, Qt::AlignLeft | Qt::AlignVCenter,
                             line.width() >= scene.textWidth(small, detail)
                                 ? detail
                                 : small_metrics.elidedText(detail, Qt::ElideRight, line.width()));
        }
    }
}

}  // namespace

void paintTimelineGutter(QPainter& painter, const TimelineScene& scene) {
    const TimelineLayout& layout = scene.layout;
    const double gutter = layout.plot_left - 4.0;
    const QRectF area(0, 0, gutter, layout.bottom());
    painter.fillRect(area, scene.palette.color(QPalette::Window));
    const QColor muted = scene.palette.color(QPalette::PlaceholderText);
    if (!scene.frame || !scene.frame->result) {
        return;
    }
    const Frame& frame = *scene.frame;
    paintLabel(painter, scene, QRectF(0, layout.ruler.top(), gutter, layout.ruler.height()),
               TimelineText::tr("t = %1").arg(frame.now), {}, muted);
    const std::size_t count = frame.result->trace->requests.size();
    paintLabel(
        painter, scene, QRectF(0, layout.trace.top(), gutter, layout.trace.height()),
        TimelineText::tr("Requests"),
        count == 0
            ? TimelineText::tr("click to add")
            : TimelineText::tr("%1 · click to add").arg(compact(static_cast<std::int64_t>(count))),
        muted);
    const auto& runs = frame.result->runs;
    for (std::size_t i = 0; i < runs.size() && i < layout.lanes.size(); ++i) {
        const QRectF row(0, layout.lanes[i].top(), gutter, layout.lanes[i].height());
        if (static_cast<int>(i) == scene.highlighted_lane) {
            painter.fillRect(row, timeline_palette::laneHighlight(scene.palette));
            painter.fillRect(QRectF(0, row.top(), 4.0, row.height()), timeline_palette::kSelection);
        }
        QString detail;
        if (const AlgorithmRun* revealed = frame.revealedRun(i)) {
            detail =
                TimelineText::tr("%1 ok · %2 rejected")
                    .arg(compact(revealed->totals.accepted), compact(revealed->totals.rejected));
        }
        paintLabel(painter, scene, row, laneName(runs[i].id, runs[i].label), detail, muted,
                   libraryBadge(runs[i].id));
    }
    painter.setPen(QPen(scene.palette.color(QPalette::Mid), 1.0));
    painter.drawLine(QPointF(gutter, 0), QPointF(gutter, layout.bottom()));
}

}  // namespace ratelab::ui
