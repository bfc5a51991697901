#pragma once

#include <QWidget>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

#include "ratelab/fleet.h"

namespace ratelab::ui {

/// One fleet run painted: a row per placement mode with each decision as a mark (the timeline's
/// accepted disc and rejected cross) over a tab of its server's colour, numbered when there is
/// room; a store row (the outage band, the sync points, each accepted charge of the chosen mode
/// in flight as an arrow store_latency long); and below, the chosen mode's servers, a strip each
/// when there are few, a heat strip when there are many. A tooltip says why a decision went as
/// it did. The view only reads the result it was given.
class FleetView : public QWidget {
    Q_OBJECT

public:
    explicit FleetView(QWidget* parent = nullptr);

    void setResult(std::shared_ptr<const FleetResult> result, Tick end);
    const std::shared_ptr<const FleetResult>& result() const { return result_; }
    /// The mode whose store traffic and servers are drawn (an index into result()->modes).
    std::size_t chosenMode() const { return chosen_; }
    void setChosenMode(std::size_t mode);
    /// The app's clock: a cursor at `now`.
    void setNow(Tick now);
    /// The ticks shown from left to right, as the timeline shows them: a request of tick t sits
    /// at t + 0.5, the middle of its cell. Until set, the whole run from tick 0 to its end.
    void setVisibleRange(double from, double to);
    /// The tick at the left edge and at the right edge of the decisions.
    double firstShown() const;
    double lastShown() const;

    /// Servers up to this many get a strip each; more share a heat strip.
    static constexpr int kMaxStrips = 16;
    /// Whether the servers are drawn as one heat strip.
    bool showsHeat() const;
    /// The tooltip for the point `at`, empty where there is no decision.
    QString toolTipAt(QPoint at) const;
    /// The request under `at` in a mode row or a server strip: its mode and index.
    struct Hit {
        std::size_t mode = 0;
        std::size_t index = 0;
    };
    std::optional<Hit> hitAt(QPoint at) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

Q_SIGNALS:
    /// A mode's row was clicked: it is now the chosen mode.
    void modeChosen(ratelab::FleetMode mode);

protected:
    void paintEvent(QPaintEvent* event) override;
    bool event(QEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;

private:
    struct Rows;
    Rows rows() const;
    double xOf(double tick) const;
    Tick tickAt(double x) const;
    /// Right of the row names: where decisions, the store's traffic and the heat are drawn.
    QRectF plotArea() const;
    /// The requests with a mark in view (a mark's width beyond each edge): [first, last).
    std::pair<std::size_t, std::size_t> shownRequests() const;
    /// The y of request `index` inside a row from `top` of `height`: requests at one tick are
    /// spread over the row instead of hiding each other.
    double yInRow(std::size_t index, double top, double height) const;
    /// A mode's figures, for the tooltip of its name.
    QString modeSummary(std::size_t mode) const;
    void paintRuler(QPainter& painter, const Rows& rows) const;
    void paintModes(QPainter& painter, const Rows& rows) const;
    void paintStore(QPainter& painter, const Rows& rows) const;
    void paintServers(QPainter& painter, const Rows& rows) const;
    void paintDecisions(QPainter& painter, std::size_t mode, double top, double height,
                        std::optional<std::uint16_t> server, bool numbers) const;
    int serverCount() const;

    std::shared_ptr<const FleetResult> result_;
    /// Per request: its place among the requests of its tick, and how many share the tick.
    std::vector<std::uint32_t> slot_;
    std::vector<std::uint32_t> crowd_;
    Tick end_ = 1;
    std::size_t chosen_ = 0;
    std::optional<Tick> now_;
    /// The requests' ticks at the left and right edges, from setVisibleRange().
    std::optional<std::pair<double, double>> range_;
};

/// A server's colour: neighbours far apart on the colour wheel, the same on every run.
QColor serverColor(int server);

}  // namespace ratelab::ui
