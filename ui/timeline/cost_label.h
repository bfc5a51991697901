#pragma once
// Where a request's cost is written in the trace row: inside its box, which widens into the
// gap to its neighbours and then uses a smaller font before the number is left out.

#include <QFont>
#include <QString>
#include <cstdint>
#include <optional>

namespace ratelab::ui {

struct CostLabel {
    QString text;
    QFont font;
    double box_width = 0.0;  ///< the request's box, at least its usual width
};

/// The label of a request of `cost` drawn in a box `box_width` x `box_height` in a tick cell
/// `cell_width` wide, starting from `font`; nothing for a cost of 1 (no label) or when even the
/// smallest readable font does not fit.
std::optional<CostLabel> fitCostLabel(std::uint32_t cost, const QFont& font, double box_width,
                                      double box_height, double cell_width);

}  // namespace ratelab::ui
