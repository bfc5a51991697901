// What the chart specs promise before anything is drawn: every drawn value fits on its axis.
#include <algorithm>

#include "catch.h"
#include "charts/chart_specs.h"
#include "qt_app.h"
#include "ratelab/io/trace_file.h"
#include "ratelab/simulation.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

ChartInput bundledInput(const std::string& name) {
    io::TraceDocument doc = io::load_trace(std::string(RATELAB_SOURCE_DIR) + "/traces/" + name);
    auto result = simulate(std::make_shared<const Trace>(std::move(doc.trace)), doc.params);
    return wholeTraceInput(std::move(result), 800);
}

double highestOnLeftAxis(const ChartSpec& spec) {
    double highest = 0.0;
    for (const LineSpec& line : spec.lines) {
        if (line.secondary_axis)
            continue;
        for (const QPointF& point : line.points)
            highest = std::max(highest, point.y());
    }
    return highest;
}

}  // namespace

TEST_CASE("queue chart: the queue over several keys stays inside the plot") {
    test::app();
    // Three keys each queueing in their own leaky bucket: together they hold more than one
    // key's queue size.
    const ChartSpec spec = buildChartSpec(ChartKind::Queue, bundledInput("key-tiers.json"));
    REQUIRE(spec.references.size() == 1);
    const double one_key = spec.references.front().y;
    const double highest = highestOnLeftAxis(spec);
    REQUIRE(highest > one_key);
    CHECK(spec.y.max >= highest);
    // Tiers have queues of their own sizes: the line is the size of a key without one.
    CHECK(spec.references.front().label == QStringLiteral("untiered queue size 4"));
    CHECK(spec.note.contains(QStringLiteral("over all keys")));
}

TEST_CASE("queue chart: with one key the axis still starts from the queue size") {
    test::app();
    const ChartSpec spec = buildChartSpec(ChartKind::Queue, bundledInput("leaky-delays.json"));
    REQUIRE(spec.references.size() == 1);
    CHECK(spec.y.max > spec.references.front().y);
    CHECK(spec.y.max >= highestOnLeftAxis(spec));
    CHECK(spec.references.front().label.startsWith(QStringLiteral("queue size ")));
}
