// FleetView's hit tests: which decision is under the pointer, what its tooltip says, and the
// click that chooses a mode.
#include <QHelpEvent>
#include <QMouseEvent>
#include <QToolTip>
#include <algorithm>

#include "fleet/fleet_view_metrics.h"
#include "timeline/timeline_palette.h"

namespace ratelab::ui {

using namespace fleet_view_metrics;
using namespace timeline_palette;

std::optional<FleetView::Hit> FleetView::hitAt(QPoint at) const {
    if (!result_ || at.x() < kGutter - 4)
        return std::nullopt;
    const Rows layout = rows();
    std::optional<std::uint16_t> server;
    std::size_t mode = 0;
    double top = 0;
    double height = 0;
    if (at.y() >= layout.modes_top && at.y() < layout.store_top) {
        mode = static_cast<std::size_t>((at.y() - layout.modes_top) / kModeRow);
        top = layout.modes_top + static_cast<double>(mode) * kModeRow;
        height = kModeRow;
    } else if (!showsHeat() && at.y() >= layout.servers_top &&
               at.y() < layout.servers_top + layout.servers_height) {
        mode = chosen_;
        server = static_cast<std::uint16_t>((at.y() - layout.servers_top) / kStrip);
        top = layout.servers_top + *server * kStrip;
        height = kStrip;
    } else {
        return std::nullopt;
    }
    const auto& requests = result_->trace->requests;
    const Tick from = tickAt(at.x() - kMark);
    const Tick to = tickAt(at.x() + kMark);
    auto it = std::lower_bound(requests.begin(), requests.end(), from,
                               [](const Request& r, Tick t) { return r.tick < t; });
    std::optional<Hit> best;
    double nearest = kMark * kMark;
    for (; it != requests.end() && it->tick <= to; ++it) {
        const auto i = static_cast<std::size_t>(it - requests.begin());
        if (server && result_->modes[mode].servers[i] != *server)
            continue;
        const double dx = xOf(static_cast<double>(it->tick)) - at.x();
        const double dy = yInRow(i, top, height) - at.y();
        if (dx * dx + dy * dy <= nearest) {
            nearest = dx * dx + dy * dy;
            best = Hit{mode, i};
        }
    }
    return best;
}

QString FleetView::modeSummary(std::size_t m) const {
    const FleetModeResult& mode = result_->modes[m];
    const KeyBurst& worst = mode.worst;
    return tr("<b>%1</b>: %2 accepted, %3 rejected<br>%4 accepted that one limiter rejects, "
              "%5 rejected that it accepts<br>worst burst %6 in %7 ticks against L = %8 "
              "(overshoot %9)<br>click to show its store traffic, servers and Learn text")
        .arg(modeTitle(mode.mode))
        .arg(mode.totals.accepted)
        .arg(mode.totals.rejected)
        .arg(mode.extra_accepted)
        .arg(mode.extra_rejected)
        .arg(worst.burst.cost)
        .arg(result_->params.base.window)
        .arg(worst.limit)
        .arg(QString::fromStdString(worst.overshoot().to_short(2)));
}

QString FleetView::toolTipAt(QPoint at) const {
    if (result_ && at.x() < kGutter) {
        const Rows layout = rows();
        if (at.y() >= layout.modes_top && at.y() < layout.store_top)
            return modeSummary(static_cast<std::size_t>((at.y() - layout.modes_top) / kModeRow));
        return {};
    }
    const std::optional<Hit> hit = hitAt(at);
    if (!hit)
        return {};
    const FleetModeResult& mode = result_->modes[hit->mode];
    const Request& request = result_->trace->requests[hit->index];
    const bool accepted = mode.is_accepted(hit->index);
    const QString verdict = accepted ? tr("accepted") : tr("rejected");
    const QColor colour =
        accepted ? acceptedToolTipText(palette()) : rejectedToolTipText(palette());
    QString text =
        tr("<b>%1</b>: request %2 at tick %3, server %4, <span style='color:%5'>%6</span>")
            .arg(modeTitle(mode.mode))
            .arg(hit->index)
            .arg(request.tick)
            .arg(mode.servers[hit->index])
            .arg(colour.name(), verdict);
    if (accepted != (result_->ideal[hit->index] != 0))
        text +=
            tr("<br>one limiter would have %1 it").arg(accepted ? tr("rejected") : tr("accepted"));
    const std::string why = explain_fleet(*result_, hit->mode, hit->index);
    text += QStringLiteral("<br>") + QString::fromStdString(why).toHtmlEscaped();
    return text;
}

bool FleetView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString text = toolTipAt(help->pos());
        if (text.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), text, this);
        return true;
    }
    return QWidget::event(event);
}

void FleetView::mousePressEvent(QMouseEvent* event) {
    if (!result_)
        return;
    const Rows layout = rows();
    const int y = event->position().toPoint().y();
    if (y < layout.modes_top || y >= layout.store_top)
        return;
    const auto mode = static_cast<std::size_t>((y - layout.modes_top) / kModeRow);
    if (mode < result_->modes.size()) {
        const bool grows = showsHeat() != (result_->modes[mode].load.size() > kMaxStrips);
        chosen_ = mode;
        if (grows)
            updateGeometry();
        update();
        Q_EMIT modeChosen(result_->modes[mode].mode);
    }
}

}  // namespace ratelab::ui
