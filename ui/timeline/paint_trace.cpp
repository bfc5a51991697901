#include <QPainter>
#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "timeline/cost_label.h"
#include "timeline/timeline_painter.h"
#include "timeline/timeline_palette.h"
#include "timeline/timeline_scene.h"

namespace ratelab::ui {

namespace {

QFont pileFont(const TimelineScene& scene) {
    QFont bold = scene.font;
    bold.setPointSizeF(std::max(6.0, scene.font.pointSizeF() * 0.85));
    bold.setBold(true);
    return bold;
}

/// The requests of a pile that count: with keys chosen, theirs (0: a pile of none of them).
std::size_t shownInPile(const TimelineScene& scene, std::size_t first, std::size_t count) {
    std::size_t shown = 0;
    for (std::size_t i = first; i < first + count; ++i)
        shown += scene.isFaint(i) ? 0 : 1;
    return shown;
}

QString pileText(const TimelineScene& scene, std::size_t first, std::size_t count) {
    const std::size_t shown = shownInPile(scene, first, count);
    return QStringLiteral("×%1").arg(shown == 0 ? count : shown);
}

/// A request box's width and height in the trace row at the scene's zoom.
QSizeF requestBoxSize(const TimelineScene& scene) {
    return {std::clamp(scene.axis->pixelsPerTick() * 0.7, 5.0, 26.0),
            std::clamp(scene.stack.spacing - 2.0, 3.0, 16.0)};
}

// Many requests on one tick: one taller box that says how many ("×20"), selected when any of
// them is; hovering it counts them, clicking it selects them all. Where placeTracePiles() and
// `counted` say.
void paintPile(QPainter& painter, const TimelineScene& scene, std::size_t first, std::size_t count,
               const QRectF& box, bool counted) {
    const QFont bold = pileFont(scene);
    // With keys chosen, the pile counts theirs; a pile of none of them is drawn faint.
    const std::size_t shown = shownInPile(scene, first, count);
    painter.setOpacity(shown == 0 ? TimelineScene::kFaintOpacity : 1.0);
    const QString text = pileText(scene, first, count);
    const double box_height = box.height();
    bool selected = false;
    for (std::size_t i = first; i < first + count && !selected; ++i) {
        selected = scene.isSelected(i);
    }
    const QColor fill = selected ? timeline_palette::kSelection : timeline_palette::kRequest;
    // A second outline offset behind the box reads as a heap of boxes, not one big request.
    painter.setPen(QPen(fill.darker(130), 1.0));
    painter.setBrush(fill.lighter(130));
    painter.drawRoundedRect(box.translated(2.5, -2.5), 2.5, 2.5);
    painter.setPen(selected ? QPen(fill.darker(160), 2.0) : QPen(fill.darker(130), 1.0));
    painter.setBrush(fill);
    painter.drawRoundedRect(box, 2.5, 2.5);
    // With a colour per key, a strip along the foot shares the pile out among its keys.
    QRectF label = box;
    const auto shares = pileKeyShares(scene, first, count);
    if (!shares.empty() && box_height >= 18.0) {
        const QRectF strip(box.left() + 2.0, box.bottom() - 7.0, box.width() - 4.0, 5.0);
        double x = strip.left();
        painter.setPen(Qt::NoPen);
        for (const auto& [colour, part] : shares) {
            const double w = strip.width() * static_cast<double>(part) / static_cast<double>(shown);
            painter.setBrush(colour);
            painter.drawRect(QRectF(x, strip.top(), w, strip.height()));
            x += w;
        }
        label.setBottom(strip.top());
    }
    painter.setFont(bold);
    painter.setPen(Qt::white);
    if (counted)
        painter.drawText(label, Qt::AlignCenter, text);
    painter.setOpacity(1.0);
}

void paintDetailed(QPainter& painter, const TimelineScene& scene) {
    const Trace& trace = scene.trace();
    const QRectF& row = scene.layout.trace;
    const double ppt = scene.axis->pixelsPerTick();
    const double width = requestBoxSize(scene).width();
    const double height = requestBoxSize(scene).height();
    const QFont small = pileFont(scene);

    // Piles are drawn last: a count wider than a tick then reads over its neighbours' boxes.
    std::vector<std::pair<std::size_t, std::size_t>> piles;
    scene.forEachVisible([&](std::size_t i, std::size_t slot, std::size_t count) {
        if (count >= TimelineScene::kPileFrom) {
            if (slot == 0) {
                piles.emplace_back(i, count);
            }
            return;
        }
        const Request& request = trace.requests[i];
        painter.setOpacity(scene.isFaint(i) ? TimelineScene::kFaintOpacity : 1.0);
        const std::optional<CostLabel> label =
            fitCostLabel(request.cost, small, width, height, ppt);
        const double box_width = label ? label->box_width : width;
        const QPointF centre(scene.centreX(request.tick), scene.slotY(row, slot, count));
        const QRectF box(centre.x() - box_width / 2.0, centre.y() - height / 2.0, box_width,
                         height);
        const bool selected = scene.isSelected(i);
        const QColor fill = selected ? timeline_palette::kSelection : scene.requestColour(i);
        painter.setPen(selected ? QPen(fill.darker(160), 2.0) : QPen(fill.darker(130), 1.0));
        painter.setBrush(fill);
        painter.drawRoundedRect(box, 2.5, 2.5);
        if (label) {
            painter.setFont(label->font);
            painter.setPen(Qt::white);
            painter.drawText(box, Qt::AlignCenter, label->text);
        }
    });
    // Counts wider than their ticks are drawn over the boxes beside; plain piles first, so that
    // no count is covered.
    const std::vector<TracePile> placed = placeTracePiles(scene, piles);
    for (const bool counted : {false, true}) {
        for (const TracePile& pile : placed) {
            if (pile.counted == counted)
                paintPile(painter, scene, pile.first, pile.count, pile.box, counted);
        }
    }
    painter.setOpacity(1.0);
}

// Zoomed out: one bar per pixel column, as tall as the cost that arrives in it.
void paintSummary(QPainter& painter, const TimelineScene& scene) {
    const QRectF& row = scene.layout.trace;
    const double column_width = TimelineScene::kColumnWidth;
    const std::vector<std::uint64_t>& cost = scene.columnSummary().cost;
    const std::size_t columns = cost.size();
    const std::uint64_t tallest =
        std::max<std::uint64_t>(1, *std::max_element(cost.begin(), cost.end()));
    const double usable = row.height() - 12.0;
    painter.setPen(Qt::NoPen);
    painter.setBrush(timeline_palette::kRequest);
    for (std::size_t c = 0; c < columns; ++c) {
        if (cost[c] == 0) {
            continue;
        }
        const double h =
            std::max(1.5, usable * static_cast<double>(cost[c]) / static_cast<double>(tallest));
        painter.drawRect(QRectF(scene.layout.plot_left + static_cast<double>(c) * column_width,
                                row.bottom() - 6.0 - h, column_width - 0.5, h));
    }
}

}  // namespace

QRectF tracePileBox(const TimelineScene& scene, std::size_t first, std::size_t count) {
    const QRectF& row = scene.layout.trace;
    const QSizeF request = requestBoxSize(scene);
    const double box_width = std::max(
        request.width(), scene.textWidth(pileFont(scene), pileText(scene, first, count)) + 6.0);
    const double box_height = std::min(row.height() - 14.0, 2.0 * request.height() + 6.0);
    const QPointF centre(scene.centreX(scene.trace().requests[first].tick), row.center().y());
    double left = centre.x() - box_width / 2.0;
    // A pile on a tick in view is drawn whole: at the plot's edges its box moves in rather than
    // being cut, and its count with it (the heap's offset outline needs 2.5 px on the right).
    const double plot_left = scene.layout.plot_left;
    const double plot_right = plot_left + scene.layout.plot_width;
    if (centre.x() >= plot_left && centre.x() <= plot_right)
        left = std::clamp(left, plot_left + 1.0,
                          std::max(plot_left + 1.0, plot_right - box_width - 3.5));
    return QRectF(left, centre.y() - box_height / 2.0, box_width, box_height);
}

std::vector<TracePile> placeTracePiles(
    const TimelineScene& scene, const std::vector<std::pair<std::size_t, std::size_t>>& piles) {
    // A busy stretch piles up on every tick, closer than the counts are wide: a count each
    // where it fits, left to right, and a plain box of a request's width between.
    std::vector<TracePile> out;
    double free_from = -std::numeric_limits<double>::infinity();
    for (const auto& [first, count] : piles) {
        TracePile& pile =
            out.emplace_back(TracePile{first, count, tracePileBox(scene, first, count), true});
        if (pile.box.left() >= free_from) {
            free_from = pile.box.right() + 4.0;  // the heap's offset outline, and a gap
            continue;
        }
        const double width = requestBoxSize(scene).width();
        const double centre = scene.centreX(scene.trace().requests[first].tick);
        pile.box = QRectF(centre - width / 2.0, pile.box.top(), width, pile.box.height());
        pile.counted = false;
    }
    return out;
}

std::vector<std::pair<QColor, std::size_t>> pileKeyShares(const TimelineScene& scene,
                                                          std::size_t first, std::size_t count) {
    std::vector<std::pair<QColor, std::size_t>> shares;
    if (scene.key_colours == nullptr || scene.key_colours->empty())
        return shares;
    const std::vector<QColor>& colours = *scene.key_colours;
    // At most eight keys have a colour: a short list, however large the key table.
    std::vector<std::pair<KeyId, std::size_t>> per_key;
    for (std::size_t i = first; i < first + count; ++i) {
        const KeyId key = scene.trace().requests[i].key;
        if (scene.isFaint(i) || key >= colours.size() || !colours[key].isValid())
            continue;
        const auto found = std::find_if(per_key.begin(), per_key.end(),
                                        [key](const auto& entry) { return entry.first == key; });
        if (found == per_key.end())
            per_key.emplace_back(key, 1);
        else
            ++found->second;
    }
    std::sort(per_key.begin(), per_key.end());
    for (const auto& [key, part] : per_key)
        shares.emplace_back(colours[key], part);
    return shares;
}

void paintTimelineTrace(QPainter& painter, const TimelineScene& scene) {
    if (!scene.frame || !scene.frame->result) {
        return;
    }
    if (scene.detailed && scene.split()) {
        paintDetailed(painter, scene.traceRow());  // the trace row is not split
    } else if (scene.detailed) {
        paintDetailed(painter, scene);
    } else {
        paintSummary(painter, scene);
    }
}

}  // namespace ratelab::ui
