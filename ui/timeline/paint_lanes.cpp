#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "timeline/timeline_painter.h"
#include "timeline/timeline_palette.h"
#include "timeline/timeline_scene.h"
#include "timeline/timeline_text.h"

namespace ratelab::ui {

namespace {

namespace marks = timeline_palette;

QFont pileCountFont(const TimelineScene& scene) {
    QFont font = scene.font;
    font.setPointSizeF(std::max(6.0, scene.font.pointSizeF() * 0.82));
    font.setBold(true);
    return font;
}

double pileShare(const TimelineScene& scene, const QRectF& row, std::size_t n, std::size_t count) {
    // Half the row, less a line of figures over and under the bar.
    const double reach = row.height() / 2.0 - 5.0 - QFontMetricsF(pileCountFont(scene)).height();
    return n == 0 ? 0.0
                  : std::max(2.0, std::max(reach, 4.0) * static_cast<double>(n) /
                                      static_cast<double>(count));
}

// The worst W-tick span so far: a tinted band with a bracket and its figure; over the limit the
// band is hatched and the bracket, thicker, is reddish purple. With several keys it is the worst
// key's span, over that key's own W.
// The band goes behind the decisions (`figure` false), the bracket and figure over them.
void paintWorstSpan(QPainter& painter, const TimelineScene& scene, std::size_t lane_index,
                    bool figure, int key_row) {
    const std::optional<SpanLabel> span = worstSpanLabel(scene, lane_index, key_row);
    if (!span) {
        return;
    }
    const QRectF lane = scene.pileRow(lane_index, key_row);
    const QColor colour = span->over ? marks::kBurstOver : marks::kBurstWithin;
    if (!figure) {
        QColor wash = colour;
        wash.setAlpha(marks::kBurstWithinWashAlpha);
        // On whole pixels, without antialiasing: a translucent band with fractional edges is
        // blended span by span, three spans a row, which took longer than the rest of the lane
        // (and Qt's raster engine hands such long span lists to its thread pool, piece by piece).
        const QRect band(QPoint(qRound(span->left), qRound(lane.top() + 1.0)),
                         QPoint(qRound(span->right) - 1, qRound(lane.bottom()) - 1));
        const bool smooth = painter.testRenderHint(QPainter::Antialiasing);
        painter.setRenderHint(QPainter::Antialiasing, false);
        painter.fillRect(band, span->over ? marks::overLimitBrush() : QBrush(wash));
        painter.setRenderHint(QPainter::Antialiasing, smooth);
        return;
    }
    const double y = span->y;
    painter.setPen(QPen(colour, span->pen));
    painter.drawLine(QPointF(span->left + 1, y), QPointF(span->right - 1, y));
    painter.drawLine(QPointF(span->left + 1, y), QPointF(span->left + 1, y + 5));
    painter.drawLine(QPointF(span->right - 1, y), QPointF(span->right - 1, y + 5));
    {
        // A sub-row is short, zoomed out the columns fill the lane, and a pile's counts stand
        // at its top: the figure may sit over marks, so behind a veil of the base colour.
        QColor veil = scene.palette.color(QPalette::Base);
        veil.setAlpha(190);
        painter.fillRect(span->box, veil);
    }
    painter.setFont(span->font);
    painter.setPen(span->over ? marks::overLimitLabel(scene.palette)
                              : scene.palette.color(QPalette::Text));
    painter.drawText(span->box, Qt::AlignRight | Qt::AlignTop, span->text);
}

void paintDelays(QPainter& painter, const TimelineScene& scene, std::size_t lane_index) {
    const std::vector<DelayLine> lines = delayLines(scene, lane_index);
    if (lines.empty()) {
        return;
    }
    const double line_width = std::clamp(scene.marker / 5.0, 1.5, 2.5);
    const double spacing = line_width + 2.5;
    const auto draw = [&](const DelayLine& line, const QColor& colour, double width) {
        painter.setPen(QPen(colour, width, Qt::SolidLine, Qt::FlatCap));
        painter.drawLine(line.arrival, QPointF(line.arrival.x(), line.y));
        painter.drawLine(QPointF(line.arrival.x(), line.y), QPointF(line.release_x, line.y));
        marks::drawRelease(painter, QPointF(line.release_x, line.y), std::max(6.0, spacing + 2.0),
                           colour);
    };
    painter.setRenderHint(QPainter::Antialiasing, true);
    QColor faded = marks::kDelay;
    faded.setAlpha(marks::kFadedDelayAlpha);
    for (const DelayLine& line : lines) {
        if (line.faded) {
            draw(line, faded, line_width);
        }
    }
    // The hovered and the selected requests' waits, whole and on top of the faded ones.
    for (const DelayLine& line : lines) {
        if (!line.faded) {
            draw(line, marks::kDelay, line_width);
        }
    }
}

// A pile's counts beside its bar, each on the side of the middle its share is drawn.
void paintPileCounts(QPainter& painter, const TimelineScene& scene, std::size_t lane,
                     std::size_t first, std::size_t count, int key_row) {
    const QColor base = scene.palette.color(QPalette::Base);
    for (const PileCount& figure : pileCounts(scene, lane, first, count, key_row)) {
        // A veil of the lane's colour keeps the figure legible over a wait line or a band.
        QColor veil = base;
        veil.setAlpha(150);
        painter.fillRect(figure.box, veil);
        const QColor colour = figure.kind == PileCount::Kind::Accepted   ? marks::kAccepted
                              : figure.kind == PileCount::Kind::Rejected ? marks::kRejected
                                                                         : marks::kPending;
        painter.setFont(figure.font);
        painter.setPen(marks::legibleOn(colour, base));
        painter.drawText(figure.box, Qt::AlignCenter, figure.text);
    }
}

// Many requests on one tick: one bar, the accepted share rising above the lane's middle and the
// rejected share hanging below it, as zoomed-out columns draw them, with their counts beside
// it; its tooltip counts them too.
// With split lanes, [first, first + count) is the whole tick and `key_row` the sub-row whose
// key's requests make the pile.
void paintPile(QPainter& painter, const TimelineScene& scene, std::size_t lane_index,
               std::size_t first, std::size_t count, int key_row) {
    const QRectF lane = scene.pileRow(lane_index, key_row);
    const auto [accepted, rejected, pending, faint] =
        tallyPile(scene, lane_index, first, count, key_row);
    painter.setOpacity(faint ? TimelineScene::kFaintOpacity : 1.0);
    const double middle = lane.center().y();
    const double x = scene.centreX(scene.trace().requests[first].tick);
    const double width = pileBarWidth(scene);
    const std::size_t whole = key_row >= 0 ? accepted + rejected + pending : count;
    const auto share = [&](std::size_t n) { return pileShare(scene, lane, n, whole); };
    const QRectF up(x - width / 2.0, middle - share(accepted + pending), width,
                    share(accepted + pending));
    const QRectF down(x - width / 2.0, middle, width, share(rejected));
    bool selected = false;
    for (std::size_t i = first; i < first + count && !selected; ++i) {
        selected = scene.isSelected(i) && (key_row < 0 || scene.splitRowOf(i) == key_row);
    }
    if (selected) {
        painter.setPen(QPen(marks::kSelection, 2.0));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(up.united(down).adjusted(-3.0, -3.0, 3.0, 3.0));
    }
    painter.setPen(Qt::NoPen);
    painter.fillRect(QRectF(up.left(), up.top(), width, share(pending)), marks::kPending);
    painter.fillRect(QRectF(up.left(), up.top() + share(pending), width, share(accepted)),
                     marks::kAccepted);
    painter.fillRect(down, marks::kRejected);
    painter.setPen(QPen(scene.palette.color(QPalette::Mid), 1.0));
    painter.drawLine(QPointF(x - width / 2.0 - 2.0, middle),
                     QPointF(x + width / 2.0 + 2.0, middle));
    paintPileCounts(painter, scene, lane_index, first, count, key_row);
    painter.setOpacity(1.0);
}

void paintDecisions(QPainter& painter, const TimelineScene& scene, std::size_t lane_index) {
    const QRectF& lane = scene.layout.lanes[lane_index];
    const AlgorithmRun& run = scene.frame->result->runs[lane_index];
    const Trace& trace = scene.trace();
    const double size = scene.marker;
    scene.forEachVisibleInLanes([&](std::size_t i, std::size_t slot, std::size_t count) {
        const int key_row = scene.split() ? scene.splitRowOf(i) : -1;
        if (count >= TimelineScene::kPileFrom) {
            if (slot == 0 && key_row < 0) {
                paintPile(painter, scene, lane_index, i, count, -1);
            } else if (slot == 0) {
                const TickRange tick = requestsOnTick(trace, trace.requests[i].tick);
                paintPile(painter, scene, lane_index, tick.first, tick.last - tick.first, key_row);
            }
            return;
        }
        const QRectF row =
            key_row >= 0 ? scene.subRow(lane_index, static_cast<std::size_t>(key_row)) : lane;
        const QPointF centre(scene.centreX(trace.requests[i].tick), scene.slotY(row, slot, count));
        painter.setOpacity(scene.isFaint(i) ? TimelineScene::kFaintOpacity : 1.0);
        if (scene.isSelected(i)) {
            painter.setPen(QPen(marks::kSelection, 2.0));
            painter.setBrush(Qt::NoBrush);
            painter.drawEllipse(centre, size / 2.0 + 3.0, size / 2.0 + 3.0);
        }
        if (!scene.frame->isRevealed(i)) {
            marks::drawPending(painter, centre, size);
        } else if (run.accepted(i)) {
            marks::drawAccepted(painter, centre, size);
        } else {
            marks::drawRejected(painter, centre, size);
        }
    });
    painter.setOpacity(1.0);
}

// Zoomed out: per pixel column, accepted requests rise above the lane's midline and rejected
// ones hang below it, so the two read apart by position as well as by colour.
void paintSummary(QPainter& painter, const TimelineScene& scene, const QRectF& lane,
                  const std::vector<LaneTally>& tallies, std::uint32_t tallest) {
    const std::size_t columns = tallies.size();
    // A lane keeps 6 px clear above and below; a split lane's short sub-row, a pixel or two.
    const double half = lane.height() / 2.0 - std::min(6.0, lane.height() * 0.08);
    const double middle = lane.center().y();
    const double scale = half / static_cast<double>(std::max<std::uint32_t>(tallest, 1));
    const double width = TimelineScene::kColumnWidth;
    painter.setPen(Qt::NoPen);
    for (std::size_t c = 0; c < columns; ++c) {
        const double x = scene.layout.plot_left + static_cast<double>(c) * width;
        const LaneTally& n = tallies[c];
        if (n.accepted > 0) {
            const double h = std::max(1.5, static_cast<double>(n.accepted) * scale);
            painter.fillRect(QRectF(x, middle - h, width, h), marks::kAccepted);
        }
        if (n.rejected > 0) {
            const double h = std::max(1.5, static_cast<double>(n.rejected) * scale);
            painter.fillRect(QRectF(x, middle + 1.0, width, h), marks::kRejected);
        }
        if (n.pending > 0) {
            const double h = std::max(1.5, static_cast<double>(n.pending) * scale);
            painter.fillRect(QRectF(x, middle - h, width, h), marks::kPending);
        }
    }
    painter.setPen(QPen(scene.palette.color(QPalette::Mid), 1.0, Qt::DotLine));
    painter.drawLine(QPointF(scene.layout.plot_left, middle),
                     QPointF(scene.layout.plot_left + scene.layout.plot_width, middle));
}

// Zoomed out, whether the columns are counted key by key: the lanes are split, or only some
// keys are on show. ColumnCounts sums every key together, so these are counted request by
// request.
bool countsByKey(const TimelineScene& scene) {
    return scene.split() || (scene.shown_keys != nullptr && !scene.shown_keys->empty());
}

// The row request `index` is counted in when counting by key: its key's sub-row, or the
// lane's only row for a key on show; -1 for a request left out.
int countedRow(const TimelineScene& scene, std::size_t index) {
    return scene.split() ? scene.splitRowOf(index) : scene.isFaint(index) ? -1 : 0;
}

// Zoomed out and counting by key: lane `lane`'s tally of each column for each row.
std::vector<std::vector<LaneTally>> keyTallies(const TimelineScene& scene, std::size_t lane) {
    const std::vector<std::size_t>& bounds = scene.summaryColumns();
    const std::size_t columns = bounds.empty() ? 0 : bounds.size() - 1;
    std::vector<std::vector<LaneTally>> rows(std::max<std::size_t>(1, scene.splitCount()),
                                             std::vector<LaneTally>(columns));
    const AlgorithmRun& run = scene.frame->result->runs[lane];
    for (std::size_t c = 0; c < columns; ++c) {
        for (std::size_t i = bounds[c]; i < bounds[c + 1]; ++i) {
            const int row = countedRow(scene, i);
            if (row < 0)
                continue;
            LaneTally& tally = rows[static_cast<std::size_t>(row)][c];
            if (!scene.frame->isRevealed(i))
                ++tally.pending;
            else
                ++(run.accepted(i) ? tally.accepted : tally.rejected);
        }
    }
    return rows;
}

// Zoomed out and counting by key: the most requests of one row in any one column.
std::uint32_t tallestKeyColumn(const TimelineScene& scene) {
    const std::vector<std::size_t>& bounds = scene.summaryColumns();
    std::vector<std::uint32_t> counts(std::max<std::size_t>(1, scene.splitCount()));
    std::uint32_t tallest = 1;
    for (std::size_t c = 0; c + 1 < bounds.size(); ++c) {
        std::fill(counts.begin(), counts.end(), 0);
        for (std::size_t i = bounds[c]; i < bounds[c + 1]; ++i) {
            if (const int row = countedRow(scene, i); row >= 0)
                tallest = std::max(tallest, ++counts[static_cast<std::size_t>(row)]);
        }
    }
    return tallest;
}

}  // namespace

void paintTimelineLanes(QPainter& painter, const TimelineScene& scene) {
    if (!scene.frame || !scene.frame->result) {
        return;
    }
    const auto& runs = scene.frame->result->runs;
    std::uint32_t tallest = 1;
    const std::size_t rows = scene.split() ? scene.splitCount() : 1;
    // The sub-row `r` a lane's part is drawn in, or -1 for the whole lane.
    const auto key_row = [&](std::size_t r) { return scene.split() ? static_cast<int>(r) : -1; };
    if (!scene.detailed && countsByKey(scene)) {
        tallest = tallestKeyColumn(scene);
    } else if (!scene.detailed) {
        // Every lane shares one scale: the most requests that fall into any one column.
        const std::vector<std::size_t>& bounds = scene.summaryColumns();
        for (std::size_t c = 0; c + 1 < bounds.size(); ++c) {
            tallest = std::max(tallest, static_cast<std::uint32_t>(bounds[c + 1] - bounds[c]));
        }
    }
    painter.setRenderHint(QPainter::Antialiasing, true);
    for (std::size_t lane_index = 0; lane_index < runs.size(); ++lane_index) {
        const AlgorithmRun& run = runs[lane_index];
        const QRectF& lane = scene.layout.lanes[lane_index];
        const AlgorithmRun* revealed = scene.frame->revealedRun(lane_index);
        for (std::size_t r = 0; revealed && r < rows; ++r) {
            paintWorstSpan(painter, scene, lane_index, false, key_row(r));
        }
        if (!run.has_decisions()) {
            continue;
        }
        if (scene.detailed) {
            paintDelays(painter, scene, lane_index);
            paintDecisions(painter, scene, lane_index);
        } else {
            painter.setRenderHint(QPainter::Antialiasing, false);
            const std::vector<std::vector<LaneTally>> tallies =
                laneColumnTallies(scene, lane_index);
            for (std::size_t r = 0; r < rows; ++r)
                paintSummary(painter, scene, scene.split() ? scene.subRow(lane_index, r) : lane,
                             tallies[r], tallest);
            painter.setRenderHint(QPainter::Antialiasing, true);
        }
        for (std::size_t r = 0; revealed && r < rows; ++r) {
            paintWorstSpan(painter, scene, lane_index, true, key_row(r));
        }
    }
}

std::vector<std::vector<LaneTally>> laneColumnTallies(const TimelineScene& scene,
                                                      std::size_t lane) {
    if (countsByKey(scene))
        return keyTallies(scene, lane);
    return {scene.columnSummary().lanes[lane]};
}

double pileBarWidth(const TimelineScene& scene) {
    return std::max(4.0, scene.marker * 0.8);
}

PileTally tallyPile(const TimelineScene& scene, std::size_t lane, std::size_t first,
                    std::size_t count, int key_row) {
    const AlgorithmRun& run = scene.frame->result->runs[lane];
    PileTally tally;
    for (const bool counting_all : {false, true}) {
        tally = PileTally{};
        tally.faint = counting_all && scene.shown_keys != nullptr && !scene.shown_keys->empty();
        for (std::size_t i = first; i < first + count; ++i) {
            if ((!counting_all && scene.isFaint(i)) ||
                (key_row >= 0 && scene.splitRowOf(i) != key_row))
                continue;
            if (!scene.frame->isRevealed(i))
                ++tally.pending;
            else
                ++(run.accepted(i) ? tally.accepted : tally.rejected);
        }
        if (tally.accepted + tally.rejected + tally.pending > 0)
            break;  // some request of a key on show is in the pile
    }
    return tally;
}

std::vector<PileCount> pileCounts(const TimelineScene& scene, std::size_t lane, std::size_t first,
                                  std::size_t count, int key_row) {
    const Trace& trace = scene.trace();
    const auto [accepted, rejected, pending, faint] = tallyPile(scene, lane, first, count, key_row);
    const std::size_t whole = key_row >= 0 ? accepted + rejected + pending : count;
    const QFont font = pileCountFont(scene);
    const double line = QFontMetricsF(font).height();
    const QRectF row = scene.pileRow(lane, key_row);
    const double middle = row.center().y();
    const double x = scene.centreX(trace.requests[first].tick);
    // The marks of the ticks beside: a pile's bar or a decision's mark, with a pixel to spare.
    const double reach = std::max(scene.marker, pileBarWidth(scene)) / 2.0 + 1.0;
    const double room =
        std::min(first + count < trace.requests.size()
                     ? scene.centreX(trace.requests[first + count].tick) - reach - x
                     : std::numeric_limits<double>::infinity(),
                 first > 0 ? x - scene.centreX(trace.requests[first - 1].tick) - reach
                           : std::numeric_limits<double>::infinity());
    // Over the bar the accepted (or, before the clock reaches them, the undecided), under it
    // the rejected.
    std::vector<PileCount> figures;
    const auto add = [&](PileCount::Kind kind, std::size_t n, double top) {
        const QString text = QString::number(n);
        const double width = scene.textWidth(font, text) + 2.0;
        if (n > 0 && width / 2.0 <= room && top >= row.top() + 1.0 &&
            top + line <= row.bottom() - 1.0) {
            figures.push_back({kind, text, font, QRectF(x - width / 2.0, top, width, line)});
        }
    };
    const double up = pileShare(scene, row, accepted + pending, whole);
    add(accepted > 0 ? PileCount::Kind::Accepted : PileCount::Kind::Pending,
        accepted > 0 ? accepted : pending, middle - up - line - 1.0);
    add(PileCount::Kind::Rejected, rejected, middle + pileShare(scene, row, rejected, whole) + 1.0);
    return figures;
}

}  // namespace ratelab::ui
