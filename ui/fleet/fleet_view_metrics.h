#pragma once
// What FleetView's painting and its hit tests share: the sizes of its rows and where they lie.

#include <QString>
#include <string_view>

#include "fleet/fleet_view.h"

namespace ratelab::ui::fleet_view_metrics {

inline constexpr int kGutter = 140;        // row names on the left
inline constexpr int kLeft = 8;            // room for the first mark, right of the names
inline constexpr int kRight = 12;          // room for the last mark
inline constexpr int kRuler = 20;          // tick labels on top
inline constexpr int kModeRow = 30;        // one placement mode
inline constexpr int kStoreRow = 24;       // the shared store
inline constexpr int kStrip = 14;          // one server, when there are few
inline constexpr int kHeat = 84;           // all servers, when there are many
inline constexpr double kMark = 7.0;       // a decision's mark
inline constexpr double kNumbered = 16.0;  // pixels a mark needs beside it for its server's number

/// A name from the core as text.
inline QString nameText(std::string_view name) {
    return QString::fromUtf8(name.data(), static_cast<qsizetype>(name.size()));
}

/// A placement mode's row name: its id, as the CLI and the trace file write it.
inline QString modeTitle(FleetMode mode) {
    return nameText(mode_name(mode));
}

}  // namespace ratelab::ui::fleet_view_metrics

namespace ratelab::ui {

/// Where each part of the view lies, top to bottom.
struct FleetView::Rows {
    int ruler_top = 0;
    int modes_top = 0;
    int store_top = 0;
    int servers_top = 0;
    int servers_height = 0;
    int bottom = 0;
};

}  // namespace ratelab::ui
