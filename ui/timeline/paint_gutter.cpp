#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>
#include <array>
#include <utility>

#include "charts/algorithm_names.h"
#include "timeline/timeline_painter.h"
#include "timeline/timeline_palette.h"
#include "timeline/timeline_scene.h"
#include "timeline/timeline_text.h"

namespace ratelab::ui {

namespace {

// The translation context of this file's texts, declared so that lupdate files them under it.
class TimelineText {
    Q_DECLARE_TR_FUNCTIONS(Timeline)
};

QFont titleFont(const TimelineScene& scene) {
    QFont bold = scene.font;
    bold.setBold(true);
    return bold;
}

QFont detailFont(const QFont& font) {
    QFont small = font;
    small.setPointSizeF(std::max(6.0, font.pointSizeF() * 0.85));
    return small;
}

QFont detailFont(const TimelineScene& scene) {
    return detailFont(scene.font);
}

QString laneFigures(const QString& accepted, const QString& rejected, bool short_form) {
    return short_form ? TimelineText::tr("%1 ok · %2 rej.").arg(accepted, rejected)
                      : TimelineText::tr("%1 ok · %2 rejected").arg(accepted, rejected);
}

// A row name in bold with a smaller second line under it, which starts with `badge` in a
// rounded frame when there is one; texts too wide for the gutter are elided.
GutterLabel fitLabel(const TimelineScene& scene, const QRectF& row, const QString& title,
                     const QString& detail, const QString& badge = {}) {
    const QRectF area = row.adjusted(10.0, 0.0, -6.0, 0.0);
    const QFont bold = titleFont(scene);
    const QFont small = detailFont(scene);
    const QFontMetricsF bold_metrics(bold);
    const QFontMetricsF small_metrics(small);
    const bool two_lines = (!detail.isEmpty() || !badge.isEmpty()) &&
                           bold_metrics.height() + small_metrics.height() <= row.height() - 4.0;
    const double total = bold_metrics.height() + (two_lines ? small_metrics.height() : 0.0);
    const double top = area.center().y() - total / 2.0;
    // Eliding lays a text out: only texts known (from a kept width) to fit skip it.
    const auto fitted = [&](const QFont& font, const QFontMetricsF& metrics, const QString& text,
                            double width) {
        return scene.textWidth(font, text) <= width
                   ? text
                   : metrics.elidedText(text, Qt::ElideRight, width);
    };
    GutterLabel label;
    label.title_box = QRectF(area.left(), top, area.width(), bold_metrics.height());
    label.title = fitted(bold, bold_metrics, title, area.width());
    if (!two_lines) {
        return label;
    }
    QRectF line(area.left(), top + bold_metrics.height(), area.width(), small_metrics.height());
    if (!badge.isEmpty()) {
        const double width = std::min(area.width(), scene.textWidth(small, badge) + 8.0);
        label.badge_box = QRectF(line.left(), line.top() + 1.0, width, line.height() - 1.0);
        label.badge = small_metrics.elidedText(badge, Qt::ElideRight, width - 8.0);
        line.setLeft(label.badge_box.right() + 5.0);
    }
    if (line.width() > small_metrics.averageCharWidth() * 3.0) {
        label.detail_box = line;
        label.detail = fitted(small, small_metrics, detail, line.width());
    }
    return label;
}

void paintLabel(QPainter& painter, const TimelineScene& scene, const GutterLabel& label,
                const QColor& detail_colour) {
    painter.setFont(titleFont(scene));
    painter.setPen(scene.palette.color(QPalette::WindowText));
    painter.drawText(label.title_box, Qt::AlignLeft | Qt::AlignVCenter, label.title);
    painter.setFont(detailFont(scene));
    if (!label.badge.isEmpty()) {
        // The library a preset lane reproduces, framed like a tag, before the counts.
        painter.setPen(QPen(scene.palette.color(QPalette::Mid), 1.0));
        painter.setBrush(scene.palette.color(QPalette::AlternateBase));
        painter.drawRoundedRect(label.badge_box, 3.0, 3.0);
        painter.setPen(scene.palette.color(QPalette::WindowText));
        painter.drawText(label.badge_box.adjusted(4.0, 0.0, -4.0, 0.0),
                         Qt::AlignLeft | Qt::AlignVCenter, label.badge);
    }
    if (!label.detail.isEmpty()) {
        painter.setPen(detail_colour);
        painter.drawText(label.detail_box, Qt::AlignLeft | Qt::AlignVCenter, label.detail);
    }
}

// A split lane's key names: the swatch before each, and the most a name may take.
constexpr double kSwatchRoom = 14.0;
double longestKeyName(const QFontMetricsF& metrics) {
    return metrics.averageCharWidth() * 12.0;
}

QRectF gutterRow(const TimelineScene& scene, const QRectF& row) {
    return QRectF(0, row.top(), scene.layout.plot_left - 4.0, row.height());
}

}  // namespace

QString compactCount(std::int64_t value) {
    if (value < 10'000) {
        return QString::number(value);
    }
    static constexpr std::array<std::pair<double, char>, 3> kUnits{
        {{1e3, 'k'}, {1e6, 'M'}, {1e9, 'G'}}};
    QString text;
    for (const auto& [size, letter] : kUnits) {
        const double scaled = static_cast<double>(value) / size;
        const int decimals = scaled < 9.995 ? 2 : scaled < 99.95 ? 1 : 0;
        text = QString::number(scaled, 'f', decimals) + QLatin1Char(letter);
        if (scaled < 999.5) {
            break;
        }
    }
    return text;
}

double widestLaneFigures(const QFont& font) {
    // The figures change as the clock moves and the gutter must not: it is as wide as the
    // widest that compactCount() writes.
    const QFontMetricsF metrics(detailFont(font));
    QString widest;
    for (const char* figure : {"9999", "99.9k", "999k", "9.99M", "99.9M"}) {
        const QString text = QString::fromLatin1(figure);
        if (metrics.horizontalAdvance(text) > metrics.horizontalAdvance(widest)) {
            widest = text;
        }
    }
    return metrics.horizontalAdvance(laneFigures(widest, widest, false));
}

QString traceRowDetail(const TimelineScene& scene) {
    const Trace& trace = scene.trace();
    if (scene.shown_keys != nullptr && !scene.shown_keys->empty()) {
        // Keys chosen: the row says which, as the other keys' requests are faint.
        QStringList names;
        for (KeyId key = 0; key < scene.shown_keys->size(); ++key) {
            if ((*scene.shown_keys)[key] != 0)
                names << keyName(trace.key_name(key));
        }
        return TimelineText::tr("only %1").arg(names.join(QStringLiteral(", ")));
    }
    const std::size_t count = trace.requests.size();
    return count == 0 ? TimelineText::tr("click to add")
                      : TimelineText::tr("%1 · click to add")
                            .arg(compactCount(static_cast<std::int64_t>(count)));
}

std::vector<SplitRowLabel> splitRowLabels(const TimelineScene& scene, std::size_t lane) {
    std::vector<SplitRowLabel> labels;
    if (!scene.split())
        return labels;
    const QFont small = detailFont(scene);
    const QFontMetricsF metrics(small);
    const QRectF gutter = gutterRow(scene, scene.layout.lanes[lane]);
    // Right-aligned, at most half the gutter wide, so that the lane's name keeps the rest.
    const double most = std::min(gutter.width() / 2.0, longestKeyName(metrics) + kSwatchRoom);
    for (std::size_t row = 0; row < scene.splitCount(); ++row) {
        const KeyId key = (*scene.split_keys)[row];
        const QRectF sub = scene.subRow(lane, row);
        SplitRowLabel label;
        label.key = key;
        label.font = small;
        label.text = metrics.elidedText(keyName(scene.trace().key_name(key)), Qt::ElideRight,
                                        most - kSwatchRoom);
        const double width = scene.textWidth(small, label.text) + kSwatchRoom;
        const double height = std::min(sub.height(), metrics.height());
        label.box =
            QRectF(gutter.right() - width - 4.0, sub.center().y() - height / 2.0, width, height);
        label.colour = scene.key_colours != nullptr && key < scene.key_colours->size()
                           ? (*scene.key_colours)[key]
                           : QColor();
        labels.push_back(label);
    }
    return labels;
}

double splitKeysWidth(const QFont& font, const Trace& trace, const std::vector<KeyId>& keys) {
    const QFontMetricsF metrics(detailFont(font));
    double widest = 0.0;
    for (const KeyId key : keys)
        widest = std::max(widest, metrics.horizontalAdvance(keyName(trace.key_name(key))));
    return std::min(widest, longestKeyName(metrics)) + kSwatchRoom + 12.0;
}

GutterLabel laneLabel(const TimelineScene& scene, std::size_t lane) {
    const Frame& frame = *scene.frame;
    const AlgorithmRun& run = frame.result->runs[lane];
    QRectF row = gutterRow(scene, scene.layout.lanes[lane]);
    const QString title = laneName(run.id, run.label);
    if (scene.split()) {
        // Split by key: the name alone, at the lane's top, left of the keys' names.
        double keys = 0.0;
        for (const SplitRowLabel& key : splitRowLabels(scene, lane))
            keys = std::max(keys, key.box.width() + 8.0);
        row.setWidth(std::max(0.0, row.width() - keys));
        row.setHeight(std::min(row.height(), QFontMetricsF(titleFont(scene)).height() + 6.0));
        return fitLabel(scene, row, title, {});
    }
    const AlgorithmRun* revealed = frame.revealedRun(lane);
    if (!revealed) {
        return fitLabel(scene, row, title, {}, libraryBadge(run.id));
    }
    if (frame.counting) {
        // The figures are still those of an earlier clock: not shown as the clock's.
        return fitLabel(scene, row, title, TimelineText::tr("counting…"), libraryBadge(run.id));
    }
    // With keys chosen, what the lane made of theirs.
    const LaneKeys* shown = scene.shownLane(lane);
    const Totals totals = shown != nullptr ? sum_totals(*shown) : revealed->totals;
    const QString accepted = compactCount(totals.accepted);
    const QString rejected = compactCount(totals.rejected);
    GutterLabel label =
        fitLabel(scene, row, title, laneFigures(accepted, rejected, false), libraryBadge(run.id));
    if (label.detail.endsWith(QChar(0x2026))) {
        // A gutter narrowed to a third of a small window: the short form, before any eliding.
        label = fitLabel(scene, row, title, laneFigures(accepted, rejected, true),
                         libraryBadge(run.id));
    }
    return label;
}

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
    paintLabel(painter, scene,
               fitLabel(scene, gutterRow(scene, layout.ruler),
                        TimelineText::tr("t = %1").arg(frame.now), {}),
               muted);
    if (layout.notes.height() > 0.0) {
        paintLabel(painter, scene,
                   fitLabel(scene, gutterRow(scene, layout.notes), TimelineText::tr("Notes"), {}),
                   muted);
    }
    paintLabel(painter, scene,
               fitLabel(scene, gutterRow(scene, layout.trace), TimelineText::tr("Requests"),
                        traceRowDetail(scene)),
               muted);
    const auto& runs = frame.result->runs;
    for (std::size_t i = 0; i < runs.size() && i < layout.lanes.size(); ++i) {
        const QRectF row = gutterRow(scene, layout.lanes[i]);
        if (static_cast<int>(i) == scene.highlighted_lane) {
            painter.fillRect(row, timeline_palette::laneHighlight(scene.palette));
            painter.fillRect(QRectF(0, row.top(), 4.0, row.height()), timeline_palette::kSelection);
        }
        paintLabel(painter, scene, laneLabel(scene, i), muted);
        for (const SplitRowLabel& key : splitRowLabels(scene, i)) {
            // A swatch of the key's colour (when it has one) before its name.
            const QRectF swatch(key.box.left() + 1.0, key.box.center().y() - 4.0, 8.0, 8.0);
            if (key.colour.isValid())
                painter.fillRect(swatch, key.colour);
            painter.setFont(key.font);
            painter.setPen(scene.palette.color(QPalette::WindowText));
            painter.drawText(key.box.adjusted(14.0, 0.0, 0.0, 0.0),
                             Qt::AlignLeft | Qt::AlignVCenter, key.text);
        }
        if (scene.split()) {
            // A hairline between the sub-rows, across the gutter and the plot.
            painter.setPen(QPen(scene.palette.color(QPalette::Midlight), 1.0, Qt::DotLine));
            for (std::size_t r = 1; r < scene.splitCount(); ++r) {
                const double y = scene.subRow(i, r).top();
                painter.drawLine(QPointF(row.right() / 2.0, y), QPointF(row.right(), y));
            }
        }
    }
    painter.setPen(QPen(scene.palette.color(QPalette::Mid), 1.0));
    painter.drawLine(QPointF(gutter, 0), QPointF(gutter, layout.bottom()));
}

}  // namespace ratelab::ui
