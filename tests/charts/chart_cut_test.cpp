// A time chart drawn once for the whole trace and cut at the clock must show what a chart
// built up to the clock shows: playback relies on it.
#include <QLineSeries>

#include "catch.h"
#include "charts/chart_specs.h"
#include "qt_app.h"
#include "ratelab/simulation.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

ChartInput defaultInput() {
    const auto result = simulate(std::make_shared<const Trace>(default_trace()), default_params());
    return wholeTraceInput(result, 800);
}

}  // namespace

TEST_CASE("cutAtTick: lines end where a chart built up to the clock ends") {
    test::app();
    const ChartInput whole = defaultInput();
    for (ChartKind kind : {ChartKind::Load, ChartKind::Cumulative, ChartKind::Bucket}) {
        for (Tick now : {Tick{6}, Tick{9}, Tick{12}}) {
            ChartInput until = whole;
            until.now = now;
            const ChartSpec expected = buildChartSpec(kind, until);
            ChartSpec cut = buildChartSpec(kind, whole);
            cutAtTick(cut, now);
            INFO("chart " << static_cast<int>(kind) << " at tick " << now);
            REQUIRE(cut.lines.size() == expected.lines.size());
            for (qsizetype i = 0; i < cut.lines.size(); ++i) {
                const QList<QPointF>& got = cut.lines[i].points;
                const QList<QPointF>& want = expected.lines[i].points;
                REQUIRE_FALSE(got.isEmpty());
                CHECK(got.back().x() <= static_cast<double>(now));
                CHECK(got.back() == want.back());
                CHECK(got.size() == want.size());
            }
            REQUIRE(cut.cursor.has_value());
            CHECK(*cut.cursor == static_cast<double>(now));
        }
    }
}

TEST_CASE("cutAtTick: a line cut between two drawn points ends on the segment") {
    ChartSpec spec;
    spec.x = AxisSpec{QString(), 0.0, 10.0, 1.0};
    LineSpec line;
    line.points = {QPointF(0, 0), QPointF(4, 8), QPointF(8, 0)};
    spec.lines.append(line);
    LineSpec markers;
    markers.markers_only = true;
    markers.points = {QPointF(1, 1), QPointF(5, 5), QPointF(7, 7)};
    spec.lines.append(markers);
    cutAtTick(spec, 6);
    CHECK(spec.lines[0].points == QList<QPointF>{QPointF(0, 0), QPointF(4, 8), QPointF(6, 4)});
    CHECK(spec.lines[1].points == QList<QPointF>{QPointF(1, 1), QPointF(5, 5)});
    CHECK(spec.cursor == 6.0);
    // A clock outside the axis draws no cursor.
    cutAtTick(spec, 20);
    CHECK_FALSE(spec.cursor.has_value());
}
