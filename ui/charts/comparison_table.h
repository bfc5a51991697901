#pragma once

#include <QFont>
#include <QRectF>
#include <QString>
#include <array>
#include <vector>

#include "ratelab/model.h"

class QPainter;

namespace ratelab {
struct SimulationResult;
}

namespace ratelab::ui {

struct ChartTheme;

/// The comparison table of a figure: per algorithm, what it accepted and rejected, its worst
/// W-tick burst (bold and reddish purple above L) and its longest queue delay, marked with the
/// algorithm's chart colour. With `keys` (key ids of the result's trace), the figures of those
/// keys only, each still against its own limit; empty: every key. The height it needs at the
/// theme's fonts, and the painting itself.
double comparisonTableHeight(const SimulationResult& result, const ChartTheme& theme);
/// One text of the table as it is drawn: its box (inside the column's padding), the text
/// (elided with "…" only when the table is too narrow for it) and how it is drawn.
struct ComparisonTableCell {
    QRectF rect;
    QString text;
    Qt::Alignment alignment;
    bool bold = false;
    bool over_limit = false;  // a worst burst above its limit, drawn in the over-limit colour
};

/// Where the table's texts go: the header row and then one row per lane, five cells each, in
/// columns as wide as their widest text needs (what is left is shared out as on a short
/// table), so that a figure with costs in the millions reads in full. Texts too wide for the
/// table at the theme's legend font are drawn a pixel or two smaller (`font`), and elided
/// only past that.
struct ComparisonTableLayout {
    QFont font;  // the texts' font; a header's, and a burst's over its limit, are bold
    double row_height = 0;
    std::array<double, 6> edges{};  // the columns' left edges, and the last one's right edge
    std::vector<ComparisonTableCell> cells;
};
ComparisonTableLayout layoutComparisonTable(const QRectF& target, const SimulationResult& result,
                                            const ChartTheme& theme,
                                            const std::vector<KeyId>& keys = {});

/// Column widths for a table `width` wide whose columns' texts need `natural`: when they all
/// fit, each column gets its `share` of the width (fractions summing to 1), widened to what
/// it needs at the cost of those with room to spare; when they do not, the widest columns are
/// narrowed first, to one common width, so that short figures stay whole.
std::array<double, 5> fitTableColumns(const std::array<double, 5>& natural,
                                      const std::array<double, 5>& share, double width);

void paintComparisonTable(QPainter& painter, const QRectF& target, const SimulationResult& result,
                          const ChartTheme& theme, const std::vector<KeyId>& keys = {});

}  // namespace ratelab::ui
