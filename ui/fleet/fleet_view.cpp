#include "fleet/fleet_view.h"

#include <QImage>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "fleet/fleet_view_metrics.h"
#include "timeline/timeline_palette.h"

namespace ratelab::ui {

using namespace fleet_view_metrics;
using namespace timeline_palette;

namespace {

/// The smallest of 1, 2, 5, 10, 20, 50, ... ticks that puts `pixels` between ruler labels.
Tick rulerStep(double pixels_per_tick, double pixels) {
    for (Tick decade = 1;; decade *= 10) {
        for (const Tick step : {decade, 2 * decade, 5 * decade}) {
            if (static_cast<double>(step) * pixels_per_tick >= pixels || step >= Tick{1} << 50)
                return step;
        }
    }
}

/// Draws inside `area` only, until it goes out of scope.
class ClipTo {
public:
    ClipTo(QPainter& painter, const QRectF& area) : painter_(painter) {
        painter_.save();
        painter_.setClipRect(area, Qt::IntersectClip);
    }
    ~ClipTo() { painter_.restore(); }
    ClipTo(const ClipTo&) = delete;
    ClipTo& operator=(const ClipTo&) = delete;

private:
    QPainter& painter_;
};

}  // namespace

QColor serverColor(int server) {
    // Golden-angle steps round the wheel: any two neighbours differ by about 137 degrees.
    const int hue = static_cast<int>(std::fmod(server * 137.508, 360.0));
    return QColor::fromHsv(hue, 150, 205);
}

FleetView::FleetView(QWidget* parent) : QWidget(parent) {
    setMouseTracking(true);
    setBackgroundRole(QPalette::Base);
    setAutoFillBackground(true);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void FleetView::setResult(std::shared_ptr<const FleetResult> result, Tick end) {
    result_ = std::move(result);
    end_ = std::max<Tick>(end, 1);
    slot_.clear();
    crowd_.clear();
    if (result_) {
        const auto& requests = result_->trace->requests;
        slot_.assign(requests.size(), 0);
        crowd_.assign(requests.size(), 1);
        for (std::size_t first = 0; first < requests.size();) {
            std::size_t last = first;
            while (last < requests.size() && requests[last].tick == requests[first].tick)
                ++last;
            for (std::size_t i = first; i < last; ++i) {
                slot_[i] = static_cast<std::uint32_t>(i - first);
                crowd_[i] = static_cast<std::uint32_t>(last - first);
            }
            first = last;
        }
        if (chosen_ >= result_->modes.size())
            chosen_ = 0;
    }
    updateGeometry();
    update();
}

void FleetView::setChosenMode(std::size_t mode) {
    if (result_ && mode < result_->modes.size() && mode != chosen_) {
        chosen_ = mode;
        update();
    }
}

void FleetView::setNow(Tick now) {
    now_ = now;
    update();
}

void FleetView::setVisibleRange(double from, double to) {
    if (!(to > from))
        return;
    // The timeline gives the edges of its cells; a request sits in the middle of its cell.
    const std::pair<double, double> range{from - 0.5, to - 0.5};
    if (range_ == range)
        return;
    range_ = range;
    update();
}

double FleetView::firstShown() const {
    return range_ ? range_->first : 0.0;
}

double FleetView::lastShown() const {
    return range_ ? range_->second : static_cast<double>(end_);
}

std::pair<std::size_t, std::size_t> FleetView::shownRequests() const {
    if (!result_)
        return {0, 0};
    const auto& requests = result_->trace->requests;
    const double span = std::max(1.0, static_cast<double>(width() - kGutter - kLeft - kRight));
    const double margin = kMark * (lastShown() - firstShown()) / span;
    const double from = firstShown() - margin;
    const double to = lastShown() + margin;
    const auto first = std::lower_bound(
        requests.begin(), requests.end(), from,
        [](const Request& r, double t) { return static_cast<double>(r.tick) < t; });
    const auto last = std::upper_bound(first, requests.end(), to, [](double t, const Request& r) {
        return t < static_cast<double>(r.tick);
    });
    return {static_cast<std::size_t>(first - requests.begin()),
            static_cast<std::size_t>(last - requests.begin())};
}

int FleetView::serverCount() const {
    return result_ && chosen_ < result_->modes.size()
               ? static_cast<int>(result_->modes[chosen_].load.size())
               : 0;
}

bool FleetView::showsHeat() const {
    return serverCount() > kMaxStrips;
}

FleetView::Rows FleetView::rows() const {
    Rows rows;
    rows.modes_top = rows.ruler_top + kRuler;
    const int modes = result_ ? static_cast<int>(result_->modes.size()) : 0;
    rows.store_top = rows.modes_top + modes * kModeRow;
    rows.servers_top = rows.store_top + kStoreRow + 8;
    rows.servers_height = showsHeat() ? kHeat : serverCount() * kStrip;
    rows.bottom = rows.servers_top + rows.servers_height + 4;
    return rows;
}

QSize FleetView::sizeHint() const {
    return {800, rows().bottom};
}

QSize FleetView::minimumSizeHint() const {
    return {kGutter + 200, rows().bottom};
}

double FleetView::xOf(double tick) const {
    const double span = width() - kGutter - kLeft - kRight;
    return kGutter + kLeft + (tick - firstShown()) * span / (lastShown() - firstShown());
}

Tick FleetView::tickAt(double x) const {
    const double span = std::max(1.0, static_cast<double>(width() - kGutter - kLeft - kRight));
    return static_cast<Tick>(std::floor(
        firstShown() + (x - kGutter - kLeft) * (lastShown() - firstShown()) / span + 0.5));
}

double FleetView::yInRow(std::size_t index, double top, double height) const {
    const double crowd = crowd_[index];
    const double room = std::max(0.0, height - kMark - 4);
    const double step = crowd > 1 ? std::min(kMark, room / (crowd - 1)) : 0.0;
    return top + height / 2 + (slot_[index] - (crowd - 1) / 2) * step;
}

void FleetView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    if (!result_) {
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(rect(), Qt::AlignCenter, tr("No fleet run yet"));
        return;
    }
    const Rows layout = rows();
    paintRuler(painter, layout);
    paintModes(painter, layout);
    paintStore(painter, layout);
    paintServers(painter, layout);
    const double x = now_ ? xOf(static_cast<double>(*now_)) : 0.0;
    if (now_ && *now_ <= end_ && x >= kGutter && x <= width()) {
        painter.setPen(QPen(chart_colors::kCursor, 1.5));
        painter.drawLine(QPointF(x, layout.modes_top), QPointF(x, layout.bottom));
    }
}

QRectF FleetView::plotArea() const {
    return QRectF(kGutter, 0, std::max(0, width() - kGutter), height());
}

void FleetView::paintRuler(QPainter& painter, const Rows& layout) const {
    const double per_tick = (width() - kGutter - kLeft - kRight) / (lastShown() - firstShown());
    const Tick step = rulerStep(per_tick, 56);
    painter.setPen(palette().color(QPalette::PlaceholderText));
    const Tick first = std::max<Tick>(
        0, static_cast<Tick>(std::ceil(firstShown() / static_cast<double>(step))) * step);
    for (Tick t = first; static_cast<double>(t) <= lastShown(); t += step) {
        const double x = xOf(static_cast<double>(t));
        if (x < kGutter)
            continue;
        painter.drawLine(QPointF(x, layout.ruler_top + kRuler - 4),
                         QPointF(x, layout.ruler_top + kRuler));
        // Near the row names a label starts at its tick instead of centring on it.
        const bool near = x - 30 < kGutter;
        painter.drawText(QRectF(near ? x - 2 : x - 30, layout.ruler_top, 60, kRuler - 4),
                         (near ? Qt::AlignLeft : Qt::AlignHCenter) | Qt::AlignVCenter,
                         QString::number(t));
    }
    painter.drawText(QRectF(4, layout.ruler_top, kGutter - 8, kRuler - 4),
                     Qt::AlignLeft | Qt::AlignVCenter, tr("tick"));
}

void FleetView::paintModes(QPainter& painter, const Rows& layout) const {
    const QFontMetrics metrics(font());
    for (std::size_t m = 0; m < result_->modes.size(); ++m) {
        const FleetModeResult& mode = result_->modes[m];
        const int top = layout.modes_top + static_cast<int>(m) * kModeRow;
        const QRect row(0, top, width(), kModeRow);
        painter.fillRect(row, m == chosen_ ? laneHighlight(palette())
                              : m % 2 == 0 ? palette().color(QPalette::AlternateBase)
                                           : palette().color(QPalette::Base));
        painter.setPen(palette().color(QPalette::Text));
        QFont bold = font();
        bold.setBold(m == chosen_);
        painter.setFont(bold);
        painter.drawText(QRect(6, top + 1, kGutter - 10, kModeRow / 2),
                         Qt::AlignLeft | Qt::AlignVCenter, modeTitle(mode.mode));
        painter.setFont(font());
        painter.setPen(palette().color(QPalette::PlaceholderText));
        painter.drawText(
            QRect(6, top + kModeRow / 2, kGutter - 10, kModeRow / 2 - 1),
            Qt::AlignLeft | Qt::AlignVCenter,
            tr("%1 ok · %2 rejected").arg(mode.totals.accepted).arg(mode.totals.rejected));
        paintDecisions(painter, m, top, kModeRow, std::nullopt, true);
    }
}

void FleetView::paintDecisions(QPainter& painter, std::size_t m, double top, double height,
                               std::optional<std::uint16_t> server, bool numbers) const {
    const FleetModeResult& mode = result_->modes[m];
    const auto& requests = result_->trace->requests;
    const double span = width() - kGutter - kLeft - kRight;
    const auto [begin, end] = shownRequests();
    const ClipTo clip(painter, plotArea());
    if (static_cast<double>(end - begin) * kMark > span * 2) {
        // Too many marks to tell apart: as on the timeline, each column of 2 pixels shows what
        // it accepted as a green bar up from the middle and what it rejected as a bar down.
        const auto columns = static_cast<std::size_t>(span / 2) + 1;
        std::vector<std::int64_t> in(columns);
        std::vector<std::int64_t> out(columns);
        for (std::size_t i = begin; i < end; ++i) {
            if (server && mode.servers[i] != *server)
                continue;
            const auto column = static_cast<std::size_t>(
                std::clamp(xOf(static_cast<double>(requests[i].tick)) - kGutter - kLeft, 0.0,
                           span) /
                2);
            (mode.is_accepted(i) ? in : out)[column] += 1;
        }
        const std::int64_t peak =
            std::max<std::int64_t>(1, std::max(*std::max_element(in.begin(), in.end()),
                                               *std::max_element(out.begin(), out.end())));
        const double half = height / 2 - 2;
        const double middle = top + height / 2;
        for (std::size_t c = 0; c < columns; ++c) {
            const double x = kGutter + kLeft + 2 * static_cast<double>(c);
            const double up = half * static_cast<double>(in[c]) / static_cast<double>(peak);
            const double down = half * static_cast<double>(out[c]) / static_cast<double>(peak);
            if (in[c] > 0)
                painter.fillRect(QRectF(x, middle - std::max(1.0, up), 1.5, std::max(1.0, up)),
                                 kAccepted);
            if (out[c] > 0)
                painter.fillRect(QRectF(x, middle, 1.5, std::max(1.0, down)), kRejected);
        }
        return;
    }
    const double room = end == begin ? 0 : span / static_cast<double>(end - begin);
    const bool numbered = numbers && room >= kNumbered;
    QFont small = font();
    small.setPointSizeF(std::max(6.0, small.pointSizeF() * 0.75));
    painter.setFont(small);
    for (std::size_t i = begin; i < end; ++i) {
        const std::uint16_t at = mode.servers[i];
        if (server && at != *server)
            continue;
        const QPointF centre(xOf(static_cast<double>(requests[i].tick)), yInRow(i, top, height));
        painter.setPen(Qt::NoPen);
        painter.setBrush(serverColor(at));
        painter.drawRect(QRectF(centre.x() - kMark / 2, centre.y() + kMark / 2 + 0.5, kMark, 2));
        if (mode.is_accepted(i))
            drawAccepted(painter, centre, kMark);
        else
            drawRejected(painter, centre, kMark);
        if (numbered) {
            painter.setPen(serverColor(at).darker(isDark(palette()) ? 60 : 150));
            painter.drawText(QPointF(centre.x() + kMark / 2 + 1, centre.y() + kMark / 2),
                             QString::number(at));
        }
    }
    painter.setFont(font());
}

void FleetView::paintStore(QPainter& painter, const Rows& layout) const {
    const FleetSettings& settings = result_->settings;
    const int top = layout.store_top;
    painter.fillRect(QRect(0, top, width(), kStoreRow), palette().color(QPalette::Window));
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(QRect(6, top, kGutter - 10, kStoreRow), Qt::AlignLeft | Qt::AlignVCenter,
                     tr("store"));
    const ClipTo clip(painter, plotArea());
    const auto at = [this](Tick t) { return xOf(static_cast<double>(t)); };
    if (const auto& outage = settings.outage) {
        // The band runs through the modes too: every decision inside it was made without the store.
        const QRectF band(at(outage->start), layout.modes_top, at(outage->end) - at(outage->start),
                          top + kStoreRow - layout.modes_top);
        painter.fillRect(band, QColor(0x80, 0x80, 0x80, 40));
        // Grey hatching: the hatch in the theme's colour means "more than L", not "down".
        // Drawn as lines, which SVG and PDF exports keep (a pattern brush comes out solid).
        const QRectF hatched(band.left(), top + 2, band.width(), kStoreRow - 4);
        const ClipTo inside(painter, hatched);
        painter.setPen(QPen(palette().color(QPalette::PlaceholderText), 1.0));
        const double left = std::max(hatched.left(), plotArea().left()) - hatched.height();
        const double right = std::min(hatched.right(), static_cast<double>(width()));
        for (double x = left; x < right; x += 6)
            painter.drawLine(QPointF(x, hatched.bottom()),
                             QPointF(x + hatched.height(), hatched.top()));
    }
    const bool syncs = std::find(settings.modes.begin(), settings.modes.end(),
                                 FleetMode::periodic_sync) != settings.modes.end();
    if (syncs && at(settings.sync_every) - at(0) >= 3) {
        painter.setPen(QPen(kSelection, 1.0));
        const Tick from = std::max<Tick>(0, static_cast<Tick>(std::floor(firstShown())));
        const Tick to = std::min(end_, static_cast<Tick>(std::ceil(lastShown())));
        for (const Tick t : fleet_sync_points(settings, from, to))
            painter.drawLine(QPointF(at(t), top + 2), QPointF(at(t), top + kStoreRow - 2));
    }
    if (const auto& outage = settings.outage) {
        // Over the sync points, on a plate of its own, so that it stays legible.
        const QString label =
            tr("store down: %1").arg(nameText(outage_policy_name(outage->policy)));
        const QRectF plate(std::max(at(outage->start), plotArea().left()) + 3, top + 4,
                           QFontMetrics(font()).horizontalAdvance(label) + 8, kStoreRow - 8);
        if (plate.right() <= at(outage->end) - 2) {
            painter.fillRect(plate, palette().color(QPalette::Base));
            painter.setPen(palette().color(QPalette::Text));
            painter.drawText(plate, Qt::AlignCenter, label);
        }
    }
    const FleetModeResult& mode = result_->modes[chosen_];
    const bool waits = mode.mode == FleetMode::central || mode.mode == FleetMode::central_racy;
    if (!waits || settings.store_latency == 0)
        return;
    // Each accepted charge travels store_latency ticks before the store holds it.
    const auto& requests = result_->trace->requests;
    const double length = at(settings.store_latency) - at(0);
    const double span = width() - kGutter - kLeft - kRight;
    const auto [begin, end] = shownRequests();
    if (length < 8 || static_cast<double>(end - begin) * kMark > span * 2)
        return;  // arrows too short or too many to read
    painter.setPen(QPen(kAccepted.darker(120), 1.2));
    // Charges sent before the left edge may still be in flight across it.
    const double sent_from = firstShown() - static_cast<double>(settings.store_latency);
    const auto first = std::lower_bound(
        requests.begin(), requests.begin() + static_cast<std::ptrdiff_t>(begin), sent_from,
        [](const Request& r, double t) { return static_cast<double>(r.tick) < t; });
    for (auto i = static_cast<std::size_t>(first - requests.begin()); i < end; ++i) {
        if (!mode.is_accepted(i))
            continue;
        const double x = at(requests[i].tick);
        const double y = top + 6 + (slot_[i] % 4) * 4;
        painter.drawLine(QPointF(x, y), QPointF(x + length, y));
        painter.drawLine(QPointF(x + length, y), QPointF(x + length - 3, y - 2));
        painter.drawLine(QPointF(x + length, y), QPointF(x + length - 3, y + 2));
    }
}

void FleetView::paintServers(QPainter& painter, const Rows& layout) const {
    const int servers = serverCount();
    const FleetMode mode = result_->modes[chosen_].mode;
    if (!showsHeat()) {
        for (int s = 0; s < servers; ++s) {
            const int top = layout.servers_top + s * kStrip;
            painter.fillRect(QRect(0, top, 6, kStrip - 1), serverColor(s));
            painter.setPen(palette().color(QPalette::Text));
            painter.drawText(QRect(10, top, kGutter - 14, kStrip), Qt::AlignLeft | Qt::AlignVCenter,
                             tr("%1 server %2").arg(modeTitle(mode)).arg(s));
            paintDecisions(painter, chosen_, top, kStrip, static_cast<std::uint16_t>(s), false);
        }
        return;
    }
    // Many servers: one row of pixels (or more) each, darker where a server got more requests.
    const double span = std::max(1, width() - kGutter - kLeft - kRight);
    // Spans of about 16 pixels: single ticks would scatter a few requests over many cells.
    const Tick bucket =
        std::max<Tick>(1, static_cast<Tick>(std::ceil((lastShown() - firstShown()) * 16 / span)));
    const Tick from = std::max<Tick>(0, static_cast<Tick>(std::floor(firstShown())));
    const Tick to = std::max(from, std::min(end_, static_cast<Tick>(std::ceil(lastShown()))));
    const FleetHeat heat = fleet_heat(*result_, chosen_, bucket, to, from);
    QImage image(static_cast<int>(heat.buckets), static_cast<int>(heat.servers),
                 QImage::Format_ARGB32);
    const QColor base = kSelection;
    for (std::size_t s = 0; s < heat.servers; ++s) {
        for (std::size_t b = 0; b < heat.buckets; ++b) {
            const double share =
                heat.peak > 0 ? static_cast<double>(heat.at(s, b)) / static_cast<double>(heat.peak)
                              : 0;
            QColor c = base;
            c.setAlphaF(static_cast<float>(share));
            image.setPixelColor(static_cast<int>(b), static_cast<int>(s), c);
        }
    }
    const auto left = static_cast<double>(from);
    const double right = left + static_cast<double>(static_cast<Tick>(heat.buckets) * bucket);
    {
        const ClipTo clip(painter, plotArea());
        painter.drawImage(QRectF(xOf(left), layout.servers_top, xOf(right) - xOf(left), kHeat),
                          image);
    }
    painter.setPen(palette().color(QPalette::Text));
    painter.drawText(QRect(6, layout.servers_top, kGutter - 10, kHeat),
                     Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap,
                     tr("%1 servers, requests per %2 ticks (darkest %3)")
                         .arg(servers)
                         .arg(bucket)
                         .arg(heat.peak));
}

}  // namespace ratelab::ui
