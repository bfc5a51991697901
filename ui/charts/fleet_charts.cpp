#include "charts/fleet_charts.h"

#include <QCoreApplication>
#include <QHBoxLayout>
#include <algorithm>
#include <cmath>

#include "charts/chart_axes.h"
#include "charts/chart_view.h"

namespace ratelab::ui {

namespace {

QString text(std::string_view s) {
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

}  // namespace

QString fleetModeShortName(FleetMode mode) {
    switch (mode) {
        case FleetMode::central:
            return QStringLiteral("central");  // no-tr: the mode's name, as the CLI spells it
        case FleetMode::central_racy:
            return QStringLiteral("racy");  // no-tr: short for central_racy
        case FleetMode::local_share:
            return QStringLiteral("local");  // no-tr: short for local_share
        case FleetMode::periodic_sync:
            return QStringLiteral("sync");  // no-tr: short for periodic_sync
        case FleetMode::key_routed:
            return QStringLiteral("routed");  // no-tr: short for key_routed
    }
    return {};
}

QColor fleetModeColor(FleetMode mode) {
    // Okabe-Ito hues besides the accepted green, the rejected vermillion and the reddish purple
    // of "more than L", and the leaky bucket's indigo.
    switch (mode) {
        case FleetMode::central:
            return {0x00, 0x72, 0xB2};
        case FleetMode::central_racy:
            return kIndigo;
        case FleetMode::local_share:
            return {0xE6, 0x9F, 0x00};
        case FleetMode::periodic_sync:
            return {0x56, 0xB4, 0xE9};
        case FleetMode::key_routed:
            return {0x55, 0x55, 0x55};
    }
    return Qt::black;
}

ChartSpec fleetLoadSpec(const FleetResult& result, int columns) {
    ChartSpec spec;
    spec.kind = ChartKind::Load;
    spec.title = QCoreApplication::translate("FleetCharts", "Fleet-wide load in the last %1 ticks")
                     .arg(result.params.base.window);
    spec.note = QCoreApplication::translate(
        "FleetCharts",
        "accepted cost of every server together; above L the fleet lets through "
        "more than one limiter would");
    const auto& requests = result.trace->requests;
    const double end = requests.empty() ? 1.0 : static_cast<double>(requests.back().tick) + 1;
    const double span = std::max(1.0, std::ceil(end / std::max(1, columns)));
    double top = static_cast<double>(result.params.base.limit);
    for (std::size_t m = 0; m < result.modes.size(); ++m) {
        const std::vector<std::int64_t> load = fleet_window_load(result, m);
        LineSpec line;
        line.group = QStringLiteral("fleet-%1").arg(m);
        line.label = text(mode_name(result.modes[m].mode));
        line.color = fleetModeColor(result.modes[m].mode);
        for (std::size_t i = 0; i < requests.size(); ++i) {
            const double x = std::floor(static_cast<double>(requests[i].tick) / span) * span;
            const auto y = static_cast<double>(load[i]);
            top = std::max(top, y);
            if (!line.points.isEmpty() && line.points.back().x() == x)
                line.points.back().setY(std::max(line.points.back().y(), y));
            else
                line.points.append(QPointF(x, y));
        }
        spec.lines.append(std::move(line));
    }
    const auto limit = static_cast<double>(result.params.base.limit);
    spec.references.append(ReferenceLine{QStringLiteral("L = %1").arg(limit), limit});
    spec.over_limit_from = limit;
    spec.x = AxisSpec{QCoreApplication::translate("FleetCharts", "tick"), 0.0, end,
                      niceStep(end, 8, 1.0)};
    spec.y = AxisSpec{QCoreApplication::translate("FleetCharts", "accepted"), 0.0,
                      std::ceil(top * 1.1) + 1, niceStep(top * 1.1, 5, 1.0)};
    return spec;
}

ChartSpec fleetExtraSpec(const FleetResult& result) {
    ChartSpec spec;
    spec.kind = ChartKind::Worst;
    spec.title = QCoreApplication::translate("FleetCharts", "Decided otherwise than one limiter");
    spec.note = QCoreApplication::translate(
        "FleetCharts", "+ accepted where one limiter rejects, − rejected where it accepts");
    BarsSpec bars;
    double top = 1;
    for (std::size_t m = 0; m < result.modes.size(); ++m) {
        const FleetModeResult& mode = result.modes[m];
        const QString name = fleetModeShortName(mode.mode);
        const QString group = QStringLiteral("fleet-%1").arg(m);
        bars.categories << QStringLiteral("%1 +").arg(name) << QStringLiteral("%1 −").arg(name);
        bars.groups << group << group;
        bars.values << static_cast<double>(mode.extra_accepted)
                    << static_cast<double>(mode.extra_rejected);
        bars.colors << fleetModeColor(mode.mode) << fleetModeColor(mode.mode).lighter(150);
        top = std::max({top, static_cast<double>(mode.extra_accepted),
                        static_cast<double>(mode.extra_rejected)});
    }
    spec.bars = std::move(bars);
    spec.x = AxisSpec{QString(), -0.5, static_cast<double>(spec.bars->values.size()) - 0.5, 1};
    spec.y = AxisSpec{QCoreApplication::translate("FleetCharts", "requests"), 0.0,
                      std::ceil(top * 1.15) + 1, niceStep(top * 1.15, 5, 1.0)};
    return spec;
}

ChartSpec fleetSyncSpec(const std::vector<SyncOvershoot>& points, Tick current) {
    ChartSpec spec;
    spec.kind = ChartKind::Load;
    spec.title = QCoreApplication::translate("FleetCharts", "periodic_sync: overshoot by interval");
    spec.note = QCoreApplication::translate(
        "FleetCharts", "the worst key's burst over its L, syncing every S ticks");
    LineSpec line;
    line.group = QStringLiteral("sync");
    line.label = QCoreApplication::translate("FleetCharts", "overshoot");
    line.color = fleetModeColor(FleetMode::periodic_sync);
    LineSpec now;
    now.group = QStringLiteral("sync-now");
    now.label = QCoreApplication::translate("FleetCharts", "S = %1 now").arg(current);
    now.color = fleetModeColor(FleetMode::central);
    now.markers_only = true;
    double right = 2;
    double top = 1;
    for (const SyncOvershoot& point : points) {
        const QPointF at(static_cast<double>(point.sync_every), point.overshoot.to_double());
        line.points.append(at);
        if (point.sync_every == current)
            now.points.append(at);
        right = std::max(right, at.x());
        top = std::max(top, at.y());
    }
    spec.lines = {line, now};
    spec.references.append(ReferenceLine{QCoreApplication::translate("FleetCharts", "one limiter"),
                                         1.0, Qt::DashLine});
    spec.over_limit_from = 1.0;
    spec.x = AxisSpec{QCoreApplication::translate("FleetCharts", "sync every (ticks)"), 0.0, right,
                      niceStep(right, 5, 1.0)};
    spec.y = AxisSpec{QCoreApplication::translate("FleetCharts", "overshoot"), 0.0,
                      std::ceil(top * 1.2 * 2) / 2, top > 2.5 ? 1.0 : 0.5};
    return spec;
}

FleetCharts::FleetCharts(QWidget* parent)
    : QWidget(parent),
      load_(new ChartView(ChartKind::Load, this)),
      extra_(new ChartView(ChartKind::Worst, this)),
      sync_(new ChartView(ChartKind::Load, this)) {
    // The menu of the simulation's charts exports a simulation; these show a fleet run.
    for (ChartView* view : {load_, extra_, sync_}) {
        view->setContextMenuPolicy(Qt::NoContextMenu);
        // The Fleet tab shares its dock with shorter tabs: its minimum must not lift theirs.
        view->setMinimumSize(160, 60);
    }
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(load_, 3);
    layout->addWidget(sync_, 2);
    layout->addWidget(extra_, 2);
    sync_->hide();
}

void FleetCharts::showResult(const FleetResult& result, const std::vector<SyncOvershoot>& by_sync) {
    ChartSpec load = fleetLoadSpec(result, std::max(200, load_->plotColumns()));
    load.cursor = load_->spec().cursor;
    load_->showSpec(load);
    extra_->showSpec(fleetExtraSpec(result));
    sync_->setVisible(!by_sync.empty());
    if (!by_sync.empty())
        sync_->showSpec(fleetSyncSpec(by_sync, result.settings.sync_every));
}

void FleetCharts::setNow(std::optional<Tick> now) {
    ChartSpec spec = load_->spec();
    spec.cursor = now ? std::optional<double>(static_cast<double>(*now)) : std::nullopt;
    if (!spec.lines.isEmpty())
        load_->showSpec(spec);
}

const ChartSpec& FleetCharts::loadSpec() const {
    return load_->spec();
}

const ChartSpec& FleetCharts::extraSpec() const {
    return extra_->spec();
}

const ChartSpec& FleetCharts::syncSpec() const {
    return sync_->spec();
}

bool FleetCharts::showsSync() const {
    return !sync_->isHidden();
}

}  // namespace ratelab::ui
