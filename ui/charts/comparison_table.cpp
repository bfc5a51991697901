#include "charts/comparison_table.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <array>

#include "charts/algorithm_names.h"
#include "charts/chart_theme.h"
#include "charts/palette.h"
#include "charts/tick_text.h"
#include "ratelab/key_figures.h"
#include "ratelab/registry.h"
#include "ratelab/simulation.h"

namespace ratelab::ui {
namespace {

// The translation context of this file's texts, declared so that lupdate files them under it.
class ComparisonTableText {
    Q_DECLARE_TR_FUNCTIONS(ComparisonTable)
};

double rowHeight(const ChartTheme& theme) {
    return std::ceil(QFontMetricsF(theme.legend_font).height() * 1.65);
}

QString countAndCost(std::int64_t count, std::int64_t cost) {
    return cost == count ? QString::number(count)
                         : ComparisonTableText::tr("%1 (cost %2)").arg(count).arg(cost);
}

}  // namespace

double comparisonTableHeight(const SimulationResult& result, const ChartTheme& theme) {
    return rowHeight(theme) * static_cast<double>(result.runs.size() + 1);
}

void paintComparisonTable(QPainter& painter, const QRectF& target, const SimulationResult& result,
                          const ChartTheme& theme, const std::vector<KeyId>& keys) {
    const double row = rowHeight(theme);
    const std::int64_t limit = result.params.base.limit;
    // Column edges as fractions of the width; the first column holds the names.
    // The worst burst gets the most room: with several keys it reads "pro: 10 in 10 ticks > 8
    // from t = 0" under "Worst burst, key against its own L".
    const std::array<double, 6> edges{0.0, 0.25, 0.37, 0.49, 0.85, 1.0};
    // With several keys, each is held to its own limit: the column shows the worst key's.
    const bool several_keys = !result.sole_key && !result.trace->requests.empty();
    // The keys on show, by key id: a lane's figures are then those keys' only.
    std::vector<char> shown;
    if (several_keys && !keys.empty())
        shown = key_mask(result.trace->keys.size(), keys);
    const std::array<QString, 5> headers{
        ComparisonTableText::tr("Algorithm"), ComparisonTableText::tr("Accepted"),
        ComparisonTableText::tr("Rejected"),
        several_keys ? ComparisonTableText::tr("Worst burst, key against its own L")
                     : ComparisonTableText::tr("Worst burst in %1")
                           .arg(ticksText(result.params.base.window)),
        ComparisonTableText::tr("Longest delay")};
    const auto cell = [&](int column, double top) {
        const double left = target.left() + target.width() * edges[column];
        const double right = target.left() + target.width() * edges[column + 1];
        return QRectF(left + 8.0, top, right - left - 16.0, row);
    };

    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    QFont header_font = theme.legend_font;
    header_font.setBold(true);
    painter.setFont(header_font);
    painter.setPen(theme.text);
    for (int c = 0; c < 5; ++c) {
        painter.drawText(cell(c, target.top()),
                         Qt::AlignVCenter | (c == 0 ? Qt::AlignLeft : Qt::AlignRight), headers[c]);
    }
    painter.setPen(QPen(theme.axis_line, 1.0));
    painter.drawLine(QPointF(target.left(), target.top() + row),
                     QPointF(target.right(), target.top() + row));

    double top = target.top() + row;
    bool striped = false;
    for (std::size_t lane = 0; lane < result.runs.size(); ++lane) {
        const AlgorithmRun& run = result.runs[lane];
        if (striped)
            painter.fillRect(QRectF(target.left(), top, target.width(), row),
                             QColor(0xF5, 0xF5, 0xF5));
        striped = !striped;
        const AlgorithmStyle style = laneStyleAt(result.runs, lane);
        const QRectF name = cell(0, top);
        painter.fillPath(
            markerPath(style.marker, QPointF(name.left() + 6.0, name.center().y()), 11.0),
            style.color);
        painter.setFont(theme.legend_font);
        painter.setPen(theme.text);
        painter.drawText(name.adjusted(20.0, 0, 0, 0), Qt::AlignVCenter | Qt::AlignLeft,
                         laneName(run.id, run.label));
        std::optional<LaneKeys> lane_keys;
        if (has_key_figures(result, lane))
            lane_keys = key_figures(result, lane);
        if (lane_keys && !shown.empty())
            lane_keys = only_keys(*lane_keys, shown);
        const Totals totals = lane_keys && !shown.empty() ? sum_totals(*lane_keys) : run.totals;
        painter.drawText(cell(1, top), Qt::AlignVCenter | Qt::AlignRight,
                         countAndCost(totals.accepted, totals.accepted_cost));
        painter.drawText(cell(2, top), Qt::AlignVCenter | Qt::AlignRight,
                         countAndCost(totals.rejected, totals.rejected_cost));
        const JudgedBurst judged =
            judged_burst(result, lane, lane_keys ? &*lane_keys : nullptr, run);
        const bool over = judged.over_limit();
        QFont burst_font = theme.legend_font;
        burst_font.setBold(over);
        painter.setFont(burst_font);
        painter.setPen(over ? chart_colors::kOverLimitText : theme.text);
        const QString start = QString::fromStdString(judged.burst.start.to_short());
        painter.drawText(
            cell(3, top), Qt::AlignVCenter | Qt::AlignRight,
            several_keys
                ? ComparisonTableText::tr("%1 from t = %2")
                      .arg(judgedBurstText(result, judged, true), start)
                : ComparisonTableText::tr("%1 from t = %2%3")
                      .arg(judged.burst.cost)
                      .arg(start, over
                                      ? (judged.limit == limit
                                             ? ComparisonTableText::tr(" (> L)")
                                             : ComparisonTableText::tr(" (> %1)").arg(judged.limit))
                                      : QString()));
        painter.setFont(theme.legend_font);
        painter.setPen(theme.text);
        painter.drawText(cell(4, top), Qt::AlignVCenter | Qt::AlignRight,
                         run.releases
                             ? ticksText(QString::fromStdString(totals.max_delay.to_short()))
                             : QStringLiteral("\u2013"));
        top += row;
    }
    painter.setPen(QPen(theme.grid, 1.0));
    painter.drawLine(QPointF(target.left(), top), QPointF(target.right(), top));
    painter.restore();
}

}  // namespace ratelab::ui
