#include "timeline/cost_label.h"

#include <QFontMetricsF>
#include <algorithm>

namespace ratelab::ui {
namespace {

// Below this a number is no longer read at a glance.
constexpr double kSmallestPointSize = 5.0;
// Room left on each side of the text inside the box, and between neighbouring boxes.
constexpr double kTextMargin = 0.5;
constexpr double kGap = 1.5;

}  // namespace

std::optional<CostLabel> fitCostLabel(std::uint32_t cost, const QFont& font, double box_width,
                                      double box_height, double cell_width) {
    if (cost <= 1)
        return std::nullopt;
    CostLabel label{QString::number(cost), font, box_width};
    if (!(font.pointSizeF() > 0.0))  // a font sized in pixels: measured as it is
        label.font.setPointSizeF(9.0);
    // A box may grow into the gap between ticks, but not into its neighbour's cell.
    const double widest = std::max(box_width, cell_width - kGap);
    for (double size = label.font.pointSizeF(); size >= kSmallestPointSize - 1e-9; size -= 0.5) {
        label.font.setPointSizeF(size);
        const QFontMetricsF metrics(label.font);
        const double needed = metrics.horizontalAdvance(label.text) + 2.0 * kTextMargin;
        if (metrics.height() - 4.0 > box_height)
            continue;
        if (needed <= widest) {
            label.box_width = std::max(box_width, needed);
            return label;
        }
    }
    return std::nullopt;
}

}  // namespace ratelab::ui
