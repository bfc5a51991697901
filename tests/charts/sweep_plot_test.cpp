// The sweep chart before and after it is drawn: the metrics of a row, the spec built from a
// sweep, where points and cells are (what clicks and tooltips rely on), and the colour scale.
#include <QImage>
#include <QPainter>
#include <cmath>

#include "catch.h"
#include "charts/chart_theme.h"
#include "charts/palette.h"
#include "charts/sweep_plot.h"
#include "qt_app.h"
#include "ratelab/simulation.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

SweepAxis wholeAxis(SweepTarget::Kind kind, std::initializer_list<std::int64_t> values) {
    SweepAxis axis{SweepTarget{kind, {}, {}}, {}};
    for (const std::int64_t v : values)
        axis.values.emplace_back(Rational(v));
    return axis;
}

/// The default scenario (L = 4, W = 10, one request at each of ticks 6 to 13), fixed window.
SweepResult defaultSweep(std::vector<SweepAxis> axes) {
    Params params = default_params();
    params.lanes = {Lane{"fixed_window", {}, {}, false}};
    return sweep(default_trace(), params, axes);
}

}  // namespace

TEST_CASE("sweep plot: the spec holds each point's metric, exactly as the rows say") {
    const SweepResult result = defaultSweep({wholeAxis(SweepTarget::Kind::limit, {1, 2, 4, 8})});
    const SweepPlotSpec spec = sweepPlotSpec(result, 0, SweepMetric::RejectedPercent, 2);
    CHECK_FALSE(spec.isHeatmap());
    CHECK(spec.title == QStringLiteral("Rejected % by L (limit)"));
    CHECK(spec.x_labels == QStringList{"1", "2", "4", "8"});
    CHECK(spec.x_positions == QList<double>{1, 2, 4, 8});
    // Windows [0, 10) and [10, 20) hold 4 requests each: L = 1 lets 2 of 8 through.
    REQUIRE(spec.values.size() == 4);
    CHECK(*spec.values[0] == 75.0);
    CHECK(*spec.values[1] == 50.0);
    CHECK(*spec.values[2] == 0.0);
    CHECK(spec.value_texts[0] == QStringLiteral("75%"));
    CHECK(spec.current == 2);
    // A fixed window lets the boundary through: 8 in 10 ticks at L = 4 is twice L.
    const SweepPlotSpec burst = sweepPlotSpec(result, 0, SweepMetric::BurstRatio, 2);
    CHECK(*burst.values[2] == 2.0);
    CHECK(burst.value_texts[2] == QStringLiteral("×2"));
    // A lane that does not queue has no delays to show.
    CHECK_FALSE(sweepPlotSpec(result, 0, SweepMetric::MaxDelay, 2).values[0].has_value());
}

TEST_CASE("sweep plot: a click finds the point or the cell it lands on") {
    const SweepResult line = defaultSweep({wholeAxis(SweepTarget::Kind::limit, {1, 2, 3, 4})});
    const SweepPlotSpec spec = sweepPlotSpec(line, 0, SweepMetric::RejectedPercent, {});
    const SweepPlotGeometry geometry(spec, QRectF(0, 0, 800, 400));
    for (int i = 0; i < 4; ++i)
        CHECK(geometry.hit(geometry.pointAt(i)) == i);
    // Between points, nearer one than the other, a few pixels off: still that one.
    CHECK(geometry.hit(geometry.pointAt(1) + QPointF(6, -30)) == 1);
    CHECK_FALSE(geometry.hit(QPointF(2, 2)).has_value());
    // Higher values sit higher.
    CHECK(geometry.pointAt(0).y() < geometry.pointAt(3).y());

    const SweepResult grid = defaultSweep({wholeAxis(SweepTarget::Kind::limit, {1, 2, 3}),
                                           wholeAxis(SweepTarget::Kind::window, {5, 10})});
    const SweepPlotSpec heat = sweepPlotSpec(grid, 0, SweepMetric::RejectedPercent, {});
    CHECK(heat.isHeatmap());
    CHECK(heat.columns() == 3);
    CHECK(heat.rows() == 2);
    const SweepPlotGeometry cells(heat, QRectF(0, 0, 800, 400));
    for (int i = 0; i < 6; ++i) {
        CHECK(cells.hit(cells.cellAt(i).center()) == i);
        CHECK(cells.plot().contains(cells.cellAt(i).center()));
    }
    // The second axis's first value is the bottom row; the first axis runs left to right.
    CHECK(cells.cellAt(0).top() > cells.cellAt(1).top());
    CHECK(cells.cellAt(0).left() < cells.cellAt(2).left());
    CHECK_FALSE(cells.hit(QPointF(1, 1)).has_value());
}

TEST_CASE("sweep plot: the colour scale runs from light to dark, and the chart is drawn") {
    CHECK(heatColor(0, 10).lightnessF() > heatColor(5, 10).lightnessF());
    CHECK(heatColor(5, 10).lightnessF() > heatColor(10, 10).lightnessF());
    CHECK(heatColor(20, 10) == heatColor(10, 10));
    test::app();
    const SweepResult grid = defaultSweep({wholeAxis(SweepTarget::Kind::limit, {1, 2, 3}),
                                           wholeAxis(SweepTarget::Kind::window, {5, 10})});
    const SweepPlotSpec heat = sweepPlotSpec(grid, 0, SweepMetric::RejectedPercent, {});
    QImage image(800, 400, QImage::Format_ARGB32);
    image.fill(Qt::black);
    {
        QPainter painter(&image);
        paintSweepPlot(painter, QRectF(0, 0, 800, 400), heat, ChartTheme::print());
    }
    const SweepPlotGeometry cells(heat, QRectF(0, 0, 800, 400));
    for (int i = 0; i < 6; ++i) {
        // Away from the printed value, the cell is its value's colour.
        const QPoint at = cells.cellAt(i).topLeft().toPoint() + QPoint(4, 4);
        CHECK(QColor(image.pixel(at)).rgb() == heatColor(*heat.values[i], cells.scaleMax()).rgb());
    }
}

TEST_CASE("sweep plot: the closed form's frontier, between values, in the line and each row") {
    test::app();
    Params params = default_params();  // one request a tick from 6 to 13, L = 4, W = 10
    params.lanes = {Lane{"token_bucket", {}, {}, false}};
    const SweepAxis capacity{
        SweepTarget{SweepTarget::Kind::lane_parameter, "token_bucket", "capacity"},
        {Rational(2), Rational(4), Rational(8)}};
    const SweepAxis rate{
        SweepTarget{SweepTarget::Kind::lane_parameter, "token_bucket", "refill_rate"},
        {Rational(2, 5), Rational(1)}};

    // A line: at 2/5 a tick the eight requests need 8 - 2/5 x 7 = 5.2 tokens, so 6.
    const SweepResult line = sweep(default_trace(), params, {capacity});
    SweepPlotSpec spec = sweepPlotSpec(line, 0, SweepMetric::RejectedPercent, {});
    const auto frontier = zero_rejection_frontier(default_trace(), params, {capacity}, 0);
    REQUIRE(frontier);
    addFrontier(spec, *frontier);
    CHECK(spec.frontier == QList<std::optional<double>>{6.0});
    CHECK(spec.frontier_label == QStringLiteral("capacity ≥ 6: none rejected"));
    const QRectF target(0, 0, 800, 400);
    const SweepPlotGeometry geometry(spec, target);
    CHECK(*geometry.frontierX(6.0) == geometry.xOf(6.0));
    CHECK_FALSE(geometry.frontierX(9.0).has_value());  // beyond the swept values
    QImage image(800, 400, QImage::Format_ARGB32);
    image.fill(Qt::white);
    {
        QPainter painter(&image);
        paintSweepPlot(painter, target, spec, ChartTheme::print());
    }
    // The dash-dotted line starts at the plot's top, with a dash: vermillion in one of the
    // pixels it crosses there.
    const int x = static_cast<int>(std::floor(geometry.xOf(6.0)));
    const int y = static_cast<int>(geometry.plot().top()) + 2;
    int bluest = 255;
    for (int dx = -1; dx <= 1; ++dx)
        bluest = std::min(bluest, QColor(image.pixel(x + dx, y)).blue());
    CHECK(bluest < 80);

    // A heatmap: capacity across, one row per rate. At a rate of 1 every request finds a token
    // again, so one token is enough: every cell of that row rejects nothing.
    const SweepResult grid = sweep(default_trace(), params, {capacity, rate});
    SweepPlotSpec heat = sweepPlotSpec(grid, 0, SweepMetric::RejectedPercent, {});
    const auto rows = zero_rejection_frontier(default_trace(), params, {capacity, rate}, 0);
    REQUIRE(rows);
    CHECK(rows->rows == std::vector<std::optional<Rational>>{Rational(6), Rational(1)});
    addFrontier(heat, *rows);
    CHECK(heat.note.contains(QStringLiteral("cells right of a mark reject nothing")));
    const SweepPlotGeometry cells(heat, target);
    // The mark stands at the left edge of the cells that reject nothing: 6 falls between the
    // columns of 4 and 8, so left of the column of 8; 4 itself, left of the column of 4.
    CHECK(*cells.frontierX(6.0) == Approx(cells.cellAt(4).left()));
    CHECK(*cells.frontierX(4.0) == Approx(cells.cellAt(2).left()));
    CHECK(*cells.frontierX(1.0) == Approx(cells.plot().left()));
    CHECK_FALSE(cells.frontierX(9.0).has_value());  // no swept capacity is enough
    heat.frontier_at_most = true;                   // as for an emission interval: at or below it
    CHECK(*cells.frontierX(6.0) == Approx(cells.cellAt(2).right()));
    CHECK_FALSE(cells.frontierX(1.0).has_value());
    heat.frontier_at_most = false;
    image.fill(Qt::black);
    {
        QPainter painter(&image);
        paintSweepPlot(painter, target, heat, ChartTheme::print());
    }
    // The mark's middle pixel is covered whole, whatever the fraction of its x.
    const QPoint mark(static_cast<int>(std::floor(cells.cellAt(4).left())),
                      static_cast<int>(cells.cellAt(0).center().y()));
    CHECK(QColor(image.pixel(mark)).rgb() == chart_colors::kFrontier.rgb());
    // The row of rate 1 has its mark at the plot's left edge, none between 4 and 8.
    const QPoint none(static_cast<int>(cells.cellAt(4).left()),
                      static_cast<int>(cells.cellAt(1).top()) + 4);
    CHECK(QColor(image.pixel(none)).rgb() != chart_colors::kFrontier.rgb());
}
