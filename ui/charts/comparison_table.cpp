#include "charts/comparison_table.h"

#include <QCoreApplication>
#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>
#include <numeric>

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

constexpr int kColumns = 5;
// Room either side of a cell's text, and before a name for its lane's marker.
constexpr double kPadding = 8.0;
constexpr double kMarkerRoom = 20.0;
// The smallest pixel size the table's font steps down to for long figures.
constexpr int kSmallestFont = 11;

double rowHeight(const ChartTheme& theme) {
    return std::ceil(QFontMetricsF(theme.legend_font).height() * 1.65);
}

QString countAndCost(std::int64_t count, std::int64_t cost) {
    return cost == count ? QString::number(count)
                         : ComparisonTableText::tr("%1 (cost %2)").arg(count).arg(cost);
}

/// The texts of one lane's row, before they are placed.
struct RowTexts {
    std::array<QString, kColumns> text;
    bool over_limit = false;
};

RowTexts rowTexts(const SimulationResult& result, std::size_t lane, bool several_keys,
                  const std::vector<char>& shown) {
    const AlgorithmRun& run = result.runs[lane];
    RowTexts row;
    row.text[0] = laneName(run.id, run.label);
    std::optional<LaneKeys> lane_keys;
    if (has_key_figures(result, lane))
        lane_keys = key_figures(result, lane);
    if (lane_keys && !shown.empty())
        lane_keys = only_keys(*lane_keys, shown);
    const Totals totals = lane_keys && !shown.empty() ? sum_totals(*lane_keys) : run.totals;
    row.text[1] = countAndCost(totals.accepted, totals.accepted_cost);
    row.text[2] = countAndCost(totals.rejected, totals.rejected_cost);
    const JudgedBurst judged = judged_burst(result, lane, lane_keys ? &*lane_keys : nullptr, run);
    row.over_limit = judged.over_limit();
    const QString start = QString::fromStdString(judged.burst.start.to_short());
    QString beyond;
    if (row.over_limit)
        beyond = judged.limit == result.params.base.limit
                     ? ComparisonTableText::tr(" (> L)")
                     : ComparisonTableText::tr(" (> %1)").arg(judged.limit);
    row.text[3] =
        several_keys
            ? ComparisonTableText::tr("%1 from t = %2")
                  .arg(judgedBurstText(result, judged, true), start)
            : ComparisonTableText::tr("%1 from t = %2%3").arg(judged.burst.cost).arg(start, beyond);
    row.text[4] = run.releases ? ticksText(QString::fromStdString(totals.max_delay.to_short()))
                               : QStringLiteral("\u2013");
    return row;
}

}  // namespace

std::array<double, 5> fitTableColumns(const std::array<double, 5>& natural,
                                      const std::array<double, 5>& share, double width) {
    std::array<double, 5> fitted{};
    const double needed = std::accumulate(natural.begin(), natural.end(), 0.0);
    if (needed >= width) {
        // Too narrow for every text: the widest columns give way first, down to a common
        // width `cap` where the columns just fill the table.
        std::array<double, 5> sorted = natural;
        std::sort(sorted.begin(), sorted.end());
        double below = 0.0;  // the widths of the columns narrower than the cap
        double cap = 0.0;
        for (std::size_t i = 0; i < sorted.size(); ++i) {
            cap = (width - below) / static_cast<double>(sorted.size() - i);
            if (cap <= sorted[i])
                break;
            below += sorted[i];
        }
        for (std::size_t c = 0; c < fitted.size(); ++c)
            fitted[c] = std::max(0.0, std::min(natural[c], cap));
        return fitted;
    }
    // Room for every text: each column takes its share of the width, and a column whose text
    // needs more takes it from the others, in proportion to what they have to spare.
    double wanting = 0.0;
    double spare = 0.0;
    for (std::size_t c = 0; c < fitted.size(); ++c) {
        fitted[c] = share[c] * width;
        if (fitted[c] < natural[c])
            wanting += natural[c] - fitted[c];
        else
            spare += fitted[c] - natural[c];
    }
    for (std::size_t c = 0; c < fitted.size(); ++c) {
        if (fitted[c] < natural[c])
            fitted[c] = natural[c];
        else if (spare > 0.0)
            fitted[c] -= (fitted[c] - natural[c]) * wanting / spare;
    }
    return fitted;
}

double comparisonTableHeight(const SimulationResult& result, const ChartTheme& theme) {
    return rowHeight(theme) * static_cast<double>(result.runs.size() + 1);
}

ComparisonTableLayout layoutComparisonTable(const QRectF& target, const SimulationResult& result,
                                            const ChartTheme& theme,
                                            const std::vector<KeyId>& keys) {
    ComparisonTableLayout layout;
    layout.row_height = rowHeight(theme);
    // With several keys, each is held to its own limit: the column shows the worst key's.
    const bool several_keys = !result.sole_key && !result.trace->requests.empty();
    // The keys on show, by key id: a lane's figures are then those keys' only.
    std::vector<char> shown;
    if (several_keys && !keys.empty())
        shown = key_mask(result.trace->keys.size(), keys);

    const std::array<QString, kColumns> headers{
        ComparisonTableText::tr("Algorithm"), ComparisonTableText::tr("Accepted"),
        ComparisonTableText::tr("Rejected"),
        several_keys ? ComparisonTableText::tr("Worst burst, key against its own L")
                     : ComparisonTableText::tr("Worst burst in %1")
                           .arg(ticksText(result.params.base.window)),
        ComparisonTableText::tr("Longest delay")};
    std::vector<RowTexts> rows;
    rows.reserve(result.runs.size());
    for (std::size_t lane = 0; lane < result.runs.size(); ++lane)
        rows.push_back(rowTexts(result, lane, several_keys, shown));

    // Each column as wide as its widest text (a header is bold, and so is a burst over its
    // limit). When the texts are too wide for the table, the font steps down a little, as far
    // as kSmallestFont, before the widest texts are elided.
    const auto naturalWidths = [&](const QFont& font) {
        QFont bold = font;
        bold.setBold(true);
        const QFontMetricsF plain_metrics(font);
        const QFontMetricsF bold_metrics(bold);
        std::array<double, kColumns> natural{};
        for (int c = 0; c < kColumns; ++c) {
            natural[c] = bold_metrics.horizontalAdvance(headers[c]);
            for (const RowTexts& row : rows) {
                const bool is_bold = c == 3 && row.over_limit;
                const double text =
                    (is_bold ? bold_metrics : plain_metrics).horizontalAdvance(row.text[c]);
                natural[c] = std::max(natural[c], text + (c == 0 ? kMarkerRoom : 0.0));
            }
            natural[c] += 2 * kPadding + 1.0;  // and a pixel against rounding
        }
        return natural;
    };
    layout.font = theme.legend_font;
    std::array<double, kColumns> natural = naturalWidths(layout.font);
    const int smallest = std::min(layout.font.pixelSize(), kSmallestFont);
    while (std::accumulate(natural.begin(), natural.end(), 0.0) > target.width() &&
           layout.font.pixelSize() > smallest) {
        layout.font.setPixelSize(layout.font.pixelSize() - 1);
        natural = naturalWidths(layout.font);
    }
    QFont bold = layout.font;
    bold.setBold(true);
    const QFontMetricsF plain_metrics(layout.font);
    const QFontMetricsF bold_metrics(bold);
    // The shares the columns have when every text fits: the worst burst gets the most room, as
    // with several keys it reads "pro: 10 in 10 ticks > 8 from t = 0".
    const std::array<double, kColumns> widths =
        fitTableColumns(natural, {0.25, 0.12, 0.12, 0.36, 0.15}, target.width());
    layout.edges[0] = target.left();
    for (int c = 0; c < kColumns; ++c)
        layout.edges[c + 1] = layout.edges[c] + widths[c];

    const auto place = [&](int column, double top, const QString& text, bool is_bold) {
        ComparisonTableCell cell;
        const double inset = kPadding + (column == 0 && top > target.top() ? kMarkerRoom : 0.0);
        cell.rect = QRectF(layout.edges[column] + inset, top,
                           std::max(0.0, widths[column] - inset - kPadding), layout.row_height);
        cell.text = (is_bold ? bold_metrics : plain_metrics)
                        .elidedText(text, Qt::ElideRight, cell.rect.width());
        cell.bold = is_bold;
        cell.alignment = Qt::AlignVCenter | (column == 0 ? Qt::AlignLeft : Qt::AlignRight);
        layout.cells.push_back(std::move(cell));
    };
    for (int c = 0; c < kColumns; ++c)
        place(c, target.top(), headers[c], true);
    double top = target.top() + layout.row_height;
    for (const RowTexts& row : rows) {
        for (int c = 0; c < kColumns; ++c) {
            place(c, top, row.text[c], c == 3 && row.over_limit);
            layout.cells.back().over_limit = c == 3 && row.over_limit;
        }
        top += layout.row_height;
    }
    return layout;
}

void paintComparisonTable(QPainter& painter, const QRectF& target, const SimulationResult& result,
                          const ChartTheme& theme, const std::vector<KeyId>& keys) {
    const ComparisonTableLayout layout = layoutComparisonTable(target, result, theme, keys);
    const double row = layout.row_height;
    painter.save();
    painter.setRenderHint(QPainter::Antialiasing, true);
    QFont bold = layout.font;
    bold.setBold(true);

    double top = target.top() + row;
    for (std::size_t lane = 0; lane < result.runs.size(); ++lane) {
        if (lane % 2 == 1)
            painter.fillRect(QRectF(target.left(), top, target.width(), row),
                             QColor(0xF5, 0xF5, 0xF5));
        const AlgorithmStyle style = laneStyleAt(result.runs, lane);
        const double marker_x = layout.edges[0] + kPadding + 6.0;
        painter.fillPath(markerPath(style.marker, QPointF(marker_x, top + row / 2.0), 11.0),
                         style.color);
        top += row;
    }
    for (const ComparisonTableCell& cell : layout.cells) {
        painter.setFont(cell.bold ? bold : layout.font);
        painter.setPen(cell.over_limit ? chart_colors::kOverLimitText : theme.text);
        painter.drawText(cell.rect, static_cast<int>(cell.alignment), cell.text);
    }
    painter.setPen(QPen(theme.axis_line, 1.0));
    painter.drawLine(QPointF(target.left(), target.top() + row),
                     QPointF(target.right(), target.top() + row));
    painter.setPen(QPen(theme.grid, 1.0));
    painter.drawLine(QPointF(target.left(), top), QPointF(target.right(), top));
    painter.restore();
}

}  // namespace ratelab::ui
