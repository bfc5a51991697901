#pragma once
// The Fleet tab's charts: fleet-wide load in the trailing window against L per mode, and what
// each mode decided otherwise than one limiter. The specs are plain values built here from a
// FleetResult; the widget keeps the Qt Charts types out of its header, as the folder asks.

#include <QWidget>
#include <optional>

#include "charts/chart_spec.h"
#include "ratelab/fleet.h"

namespace ratelab::ui {

class ChartView;

/// "central", "racy", "local", "sync", "routed": a mode's name where room is short.
QString fleetModeShortName(FleetMode mode);
/// A mode's colour in the fleet charts, told apart from the accepted and rejected marks.
QColor fleetModeColor(FleetMode mode);

/// The accepted cost of the whole fleet in the trailing W ticks at each tick a request came
/// (fleet_window_load()), one line per mode, L as a reference line and the band above it
/// shaded; at most `columns` points a line (the largest of each span, so peaks stay).
ChartSpec fleetLoadSpec(const FleetResult& result, int columns);
/// Two bars per mode, "sync +" and "sync −": the requests it accepted that one limiter
/// rejects, and the reverse.
ChartSpec fleetExtraSpec(const FleetResult& result);

/// periodic_sync's worst overshoot at each sync interval of `points`, with the document's own
/// interval marked and 1 (one limiter) as a reference line.
ChartSpec fleetSyncSpec(const std::vector<SyncOvershoot>& points, Tick current);

/// The charts side by side, refilled with each new result.
class FleetCharts : public QWidget {
    Q_OBJECT

public:
    explicit FleetCharts(QWidget* parent = nullptr);
    /// `by_sync` empty: periodic_sync is not among the modes, and its chart is hidden.
    void showResult(const FleetResult& result, const std::vector<SyncOvershoot>& by_sync);
    /// The clock: the load chart's cursor.
    void setNow(std::optional<Tick> now);
    const ChartSpec& loadSpec() const;
    const ChartSpec& extraSpec() const;
    const ChartSpec& syncSpec() const;
    /// Whether the sync chart is part of the tab (periodic_sync is among the modes).
    bool showsSync() const;

private:
    ChartView* load_;
    ChartView* extra_;
    ChartView* sync_;
};

}  // namespace ratelab::ui
