#include "charts/timeline_print.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QImage>
#include <QPainter>
#include <QPalette>
#include <algorithm>
#include <cmath>

#include "charts/algorithm_names.h"
#include "charts/chart_theme.h"
#include "session/frame_model.h"
#include "timeline/time_axis.h"
#include "timeline/timeline_layout.h"
#include "timeline/timeline_painter.h"
#include "timeline/timeline_palette.h"
#include "timeline/timeline_panel.h"
#include "timeline/timeline_scene.h"
#include "timeline/timeline_text.h"

namespace ratelab::ui {

QPalette printPalette() {
    const ChartTheme theme = ChartTheme::print();
    QPalette palette;
    palette.setColor(QPalette::Base, Qt::white);
    palette.setColor(QPalette::AlternateBase, QColor(0xF6, 0xF6, 0xF6));
    palette.setColor(QPalette::Window, QColor(0xF2, 0xF2, 0xF2));
    palette.setColor(QPalette::WindowText, theme.text);
    palette.setColor(QPalette::Text, theme.text);
    palette.setColor(QPalette::PlaceholderText, theme.muted_text);
    palette.setColor(QPalette::Mid, QColor(0xA0, 0xA0, 0xA0));
    palette.setColor(QPalette::Midlight, QColor(0xE2, 0xE2, 0xE2));
    palette.setColor(QPalette::Highlight, QColor(0x00, 0x72, 0xB2));
    return palette;
}

namespace {

constexpr double kLegendHeight = 28.0;

/// The timeline sizes its text in points, as the app's font does.
QFont printFont() {
    QFont font(QStringLiteral("DejaVu Sans"));
    font.setStyleHint(QFont::SansSerif);
    font.setHintingPreference(QFont::PreferNoHinting);
    font.setPointSizeF(9.5);
    return font;
}

/// Room for the longest lane name, as the app leaves it.
double gutterWidth(const QFont& font, const SimulationResult& result) {
    const QFontMetricsF bold([&] {
        QFont b = font;
        b.setBold(true);
        return b;
    }());
    double gutter = 0.0;
    for (const AlgorithmRun& run : result.runs)
        gutter = std::max(gutter, bold.horizontalAdvance(algorithmName(run.id)) + 30.0);
    return std::max(gutter, 150.0);
}

/// How far right `widget` draws when given plenty of room: its rightmost inked pixel.
double drawnWidth(QWidget& widget) {
    widget.resize(3000, 28);
    QImage image(widget.size(), QImage::Format_ARGB32_Premultiplied);
    image.fill(Qt::transparent);
    widget.render(&image, QPoint(), QRegion(), QWidget::DrawChildren);
    for (int x = image.width() - 1; x >= 0; --x) {
        for (int y = 0; y < image.height(); ++y) {
            if (qAlpha(image.pixel(x, y)) != 0)
                return x + 1;
        }
    }
    return 0.0;
}

/// The app's gutter shows the clock ("t = 12") and an editing hint ("click to add"); neither
/// means anything on paper. Until the timeline can be asked to leave them out, the printed
/// timeline paints the two gutter cells again without them, in the gutter's own style.
void withoutInteractiveHints(QPainter& painter, const TimelineScene& scene) {
    const TimelineLayout& layout = scene.layout;
    const double gutter = layout.plot_left - 4.0;
    const QColor background = scene.palette.color(QPalette::Window);
    painter.fillRect(QRectF(0, layout.ruler.top(), gutter, layout.ruler.height()), background);
    const QRectF row(0, layout.trace.top(), gutter, layout.trace.height());
    painter.fillRect(row, background);
    QFont bold = scene.font;
    bold.setBold(true);
    QFont small = scene.font;
    small.setPointSizeF(std::max(6.0, scene.font.pointSizeF() * 0.85));
    const QFontMetricsF bold_metrics(bold);
    const QFontMetricsF small_metrics(small);
    const QRectF area = row.adjusted(10.0, 0.0, -6.0, 0.0);
    const double top = area.center().y() - (bold_metrics.height() + small_metrics.height()) / 2;
    painter.setFont(bold);
    painter.setPen(scene.palette.color(QPalette::WindowText));
    painter.drawText(QRectF(area.left(), top, area.width(), bold_metrics.height()),
                     Qt::AlignLeft | Qt::AlignVCenter,
                     QCoreApplication::translate("Timeline", "Requests"));
    painter.setFont(small);
    painter.setPen(scene.palette.color(QPalette::PlaceholderText));
    const std::size_t count = scene.trace().requests.size();
    // With keys chosen the row says which, as on screen: the others' requests are faint.
    const QString detail =
        scene.shown_keys != nullptr && !scene.shown_keys->empty()
            ? traceRowDetail(scene)
            : (count == 1 ? QCoreApplication::translate("Timeline", "1 request")
                          : QCoreApplication::translate("Timeline", "%1 requests").arg(count));
    painter.drawText(
        QRectF(area.left(), top + bold_metrics.height(), area.width(), small_metrics.height()),
        Qt::AlignLeft | Qt::AlignVCenter,
        small_metrics.elidedText(detail, Qt::ElideRight, area.width()));
}

}  // namespace

QRectF paintPrintedTimeline(QPainter& painter, const QRectF& target,
                            const std::shared_ptr<const SimulationResult>& result, double from,
                            double to, const PrintedTimelineOptions& options) {
    const QFont font = printFont();
    const QPalette palette = printPalette();
    Frame frame;
    frame.result = result;
    frame.revealed = result;
    frame.decided = result->trace->requests.size();
    frame.keys = countKeys(*result, *result, frame.decided, std::nullopt);
    // Every decision is shown: the clock stands past the end, so no future is greyed out and its
    // handle falls outside the plot.
    frame.now = static_cast<Tick>(std::ceil(to)) + 1;

    // The legend first: its entries decide how many lines it takes.
    TimelineLegend legend;
    legend.setPalette(palette);
    legend.setShowsPiles(hasPile(*result->trace));
    // The keys' colours in the Requests row, as on screen, named in the legend.
    const std::vector<char> shown_keys = options.keys.empty() || result->sole_key
                                             ? std::vector<char>{}
                                             : key_mask(result->trace->keys.size(), options.keys);
    std::vector<QColor> key_colours(result->trace->keys.size());
    QList<QPair<QString, QColor>> key_legend;
    const std::vector<KeyId> coloured = colouredKeys(*result, shown_keys);
    for (std::size_t i = 0; i < coloured.size(); ++i) {
        key_colours[coloured[i]] = timeline_palette::kKeyColours[i];
        key_legend.append(
            {keyName(result->trace->key_name(coloured[i])), timeline_palette::kKeyColours[i]});
    }
    legend.setKeys(key_legend);
    const bool split = options.split_by_key && !coloured.empty();
    // One line if smaller type allows it, else as many lines as the entries need, whole.
    QFont legend_font = font;
    legend.setFont(legend_font);
    while (drawnWidth(legend) > target.width() - 4.0 && legend_font.pointSizeF() > 6.5) {
        legend_font.setPointSizeF(legend_font.pointSizeF() - 0.5);
        legend.setFont(legend_font);
    }
    const double legend_height =
        std::max(kLegendHeight,
                 static_cast<double>(legend.heightForWidth(static_cast<int>(target.width()))));
    std::vector<std::optional<LaneKeys>> shown_lanes;
    if (!shown_keys.empty())
        shown_lanes = shownLaneKeys(frame, shown_keys);
    // Split by key: a row per coloured key, each with its own figures.
    std::vector<int> split_rows(result->trace->keys.size(), -1);
    std::vector<std::vector<std::optional<LaneKeys>>> split_lanes;
    if (split) {
        for (std::size_t row = 0; row < coloured.size(); ++row) {
            split_rows[coloured[row]] = static_cast<int>(row);
            split_lanes.push_back(
                shownLaneKeys(frame, key_mask(result->trace->keys.size(), {coloured[row]})));
        }
    }
    // The timeline in the height left above the legend and `below` more. The scene keeps a
    // pointer to the axis.
    TimeAxis axis;
    const auto build = [&](double below) {
        const QSizeF room(target.width(), std::max(1.0, target.height() - legend_height - below));
        const TimelineLayout laid_out = TimelineLayout::compute(
            room, result->runs.size(),
            gutterWidth(font, *result) +
                (split ? splitKeysWidth(font, *result->trace, coloured) : 0.0),
            split ? std::max(TimelineLayout::kMaxLaneHeight,
                             36.0 * static_cast<double>(coloured.size()))
                  : TimelineLayout::kMaxLaneHeight,
            !options.notes.empty());
        axis.setWidth(laid_out.plot_width);
        axis.setContent(from, std::max(to, from + 1.0));
        axis.fit();
        TimelineScene built = TimelineScene::build(axis, laid_out, frame);
        built.palette = palette;
        built.font = font;
        built.notes = &options.notes;
        if (!coloured.empty())
            built.key_colours = &key_colours;
        if (!shown_keys.empty()) {
            built.shown_keys = &shown_keys;
            built.shown_lanes = &shown_lanes;
        }
        if (split) {
            built.split_keys = &coloured;
            built.split_rows = &split_rows;
            built.split_lanes = &split_lanes;
            built.applySplit();
        }
        return built;
    };
    TimelineScene scene = build(0.0);
    // A print has no tooltips: the notes cut short on the timeline are written out whole under
    // the legend, a line each ("t = 12: the window turns over here").
    QStringList note_lines;
    for (const NoteMark& mark : noteMarks(scene)) {
        if (mark.text != mark.full)
            note_lines << QStringLiteral("t = %1: %2").arg(mark.tick).arg(mark.full);
    }
    constexpr qsizetype kMostNoteLines = 6;
    if (note_lines.size() > kMostNoteLines) {
        const qsizetype more = note_lines.size() - (kMostNoteLines - 1);
        note_lines.resize(kMostNoteLines - 1);
        note_lines << QCoreApplication::translate("TimelinePrint", "… and %1 more notes").arg(more);
    }
    const QFont note_font = noteFont(font);
    const double note_line = QFontMetricsF(note_font).lineSpacing();
    const double notes_height =
        note_lines.isEmpty() ? 0.0 : static_cast<double>(note_lines.size()) * note_line + 4.0;
    if (!note_lines.isEmpty())
        scene = build(notes_height);
    const TimelineLayout& layout = scene.layout;
    const QSizeF size(target.width(),
                      std::max(1.0, target.height() - legend_height - notes_height));

    painter.save();
    painter.translate(target.topLeft());
    painter.setFont(font);
    painter.fillRect(QRectF(QPointF(0, 0), target.size()), palette.color(QPalette::Base));
    // The same layers, in the same order and with the same clip, as the app's timeline view.
    paintTimelineBackground(painter, scene);
    painter.save();
    painter.setClipRect(QRectF(layout.plot_left, 0, layout.plot_width + 4.0, layout.bottom()));
    painter.setRenderHint(QPainter::Antialiasing, true);
    paintTimelineNoteGuides(painter, scene);
    paintTimelineRuler(painter, scene);
    paintTimelineNotes(painter, scene);
    paintTimelineTrace(painter, scene);
    paintTimelineLanes(painter, scene);
    painter.restore();
    painter.setRenderHint(QPainter::Antialiasing, true);
    paintTimelineGutter(painter, scene);
    withoutInteractiveHints(painter, scene);

    legend.resize(static_cast<int>(target.width()), static_cast<int>(legend_height));
    painter.translate(0, size.height());
    legend.render(&painter, QPoint(), QRegion(), QWidget::DrawChildren);
    painter.setFont(note_font);
    painter.setPen(palette.color(QPalette::Text));
    const QFontMetricsF note_metrics(note_font);
    for (qsizetype i = 0; i < note_lines.size(); ++i) {
        const QRectF line(6.0, legend_height + 2.0 + static_cast<double>(i) * note_line,
                          target.width() - 12.0, note_line);
        painter.drawText(line, Qt::AlignLeft | Qt::AlignVCenter,
                         note_metrics.elidedText(note_lines[i], Qt::ElideRight, line.width()));
    }
    painter.restore();
    return QRectF(target.left() + layout.plot_left, target.top() + layout.trace.top(),
                  layout.plot_width, layout.bottom() - layout.trace.top());
}

TimelinePainter printedTimelinePainter() {
    return &paintPrintedTimeline;
}

}  // namespace ratelab::ui
