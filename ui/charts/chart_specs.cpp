#include "charts/chart_specs.h"

#include <QCoreApplication>
#include <algorithm>
#include <cmath>
#include <map>

#include "charts/algorithm_names.h"
#include "charts/chart_axes.h"
#include "charts/palette.h"
#include "charts/tick_text.h"
#include "ratelab/key_figures.h"
#include "ratelab/registry.h"

namespace ratelab::ui {
namespace {

// The translation context of this file's texts, declared so that lupdate files them under it.
class ChartText {
    Q_DECLARE_TR_FUNCTIONS(Charts)
};

QList<QPointF> toPoints(const std::vector<PlotPoint>& points, double scale = 1.0) {
    QList<QPointF> out;
    out.reserve(static_cast<qsizetype>(points.size()));
    for (const PlotPoint& p : points)
        out.append(QPointF(p.x, p.y * scale));
    return out;
}

/// The drawn part of time: the view, cut at the clock.
double drawnUntil(const ChartInput& input) {
    if (!input.now)
        return input.to;
    return std::min(input.to, static_cast<double>(*input.now));
}

AxisSpec timeAxis(const ChartInput& input) {
    return AxisSpec{ChartText::tr("Tick"), input.from, input.to,
                    niceStep(input.to - input.from, 10, 1.0)};
}

/// A count axis from 0 that leaves room above `highest` for the labels of reference lines.
AxisSpec countAxis(const QString& title, double highest) {
    const double top = std::max(1.0, highest * 1.12);
    const double step = niceStep(top, 6, 1.0);
    return AxisSpec{title, 0.0, niceCeiling(top, step), step};
}

/// Lines thin out where ticks are close together, so that a long trace reads as lines rather
/// than as a thick tangle; at a dozen pixels per tick and more they have their full width.
double lineScale(const ChartInput& input) {
    const double pixels_per_tick = input.columns / std::max(1.0, input.device_pixel_ratio) /
                                   std::max(1.0, input.to - input.from);
    return std::clamp(pixels_per_tick / 12.0, 0.4, 1.0);
}

/// The line of lane `lane`, in the lane's style and shown and hidden with its other series.
LineSpec laneLine(const ResultSeries& series, std::size_t lane, QList<QPointF> points,
                  const ChartInput& input) {
    const AlgorithmStyle style = laneStyleAt(series.algorithms, lane);
    const AlgorithmSeries& s = series.algorithms[lane];
    LineSpec line;
    line.group = laneGroup(lane);
    line.label = laneName(s.id, s.label);
    line.points = std::move(points);
    line.color = style.color;
    line.style = style.line;
    line.marker = style.marker;
    line.width = std::max(1.2, style.width * lineScale(input));
    // Where a line has more vertices than the plot has pixels it draws an envelope, in which a
    // dash pattern means nothing and costs a stroke per dash: draw it solid.
    if (static_cast<double>(line.points.size()) >
        input.columns / std::max(1.0, input.device_pixel_ratio))
        line.style = Qt::SolidLine;
    return line;
}

void addLimitLines(ChartSpec& spec, std::int64_t limit) {
    spec.references.append(ReferenceLine{ChartText::tr("L = %1").arg(limit),
                                         static_cast<double>(limit), Qt::DashLine});
    spec.references.append(ReferenceLine{ChartText::tr("2L = %1").arg(2 * limit),
                                         static_cast<double>(2 * limit), Qt::DotLine});
    spec.over_limit_from = static_cast<double>(limit);
}

/// Whether requests of several keys share the chart's sums: each key is held to its own limit,
/// so no one L judges a sum over them.
bool summedOverKeys(const ChartInput& input) {
    return input.series->summed;
}

/// Which keys a chart of a several-key trace counts, for its title: " · key "pro"", " · 2 of 5
/// keys", or nothing when it counts every key.
QString keysShown(const ChartInput& input) {
    const ResultSeries& series = *input.series;
    const Trace& trace = *input.result->trace;
    if (series.keys.empty() || series.keys_in_trace < 2)
        return QString();
    if (series.one_key) {
        return ChartText::tr(" · key \"%1\"").arg(keyName(trace.key_name(*series.one_key)));
    }
    return ChartText::tr(" · %1 of %2 keys").arg(series.keys.size()).arg(series.keys_in_trace);
}

void addCursor(ChartSpec& spec, const ChartInput& input) {
    if (input.now && static_cast<double>(*input.now) >= input.from &&
        static_cast<double>(*input.now) <= input.to)
        spec.cursor = static_cast<double>(*input.now);
}

/// Whether some lane traces keys one by one (SeriesOptions::key_lines) in the series it has.
bool hasKeyLines(const ResultSeries& series, bool queues) {
    return std::any_of(series.algorithms.begin(), series.algorithms.end(),
                       [queues](const AlgorithmSeries& s) {
                           return !s.by_key.empty() && (queues ? s.releases : s.level_capacity > 0);
                       });
}

/// Key line `index` of lane `lane`: the key's colour (as on the timeline), the lane's pattern
/// when `lanes` lanes draw such lines, and a name that says whose it is.
LineSpec keyLine(const ChartInput& input, std::size_t lane, std::size_t index, std::size_t lanes,
                 QList<QPointF> points) {
    const ResultSeries& series = *input.series;
    const AlgorithmSeries& s = series.algorithms[lane];
    const QString key = keyName(input.result->trace->key_name(s.by_key[index].key));
    LineSpec line = laneLine(series, lane, std::move(points), input);
    line.color = kKeyColours[index % kMostKeyColours];
    line.label = lanes == 1 ? key : ChartText::tr("%1 · %2").arg(line.label, key);
    if (lanes == 1)
        line.style = Qt::SolidLine;
    line.width = 1.8 * std::max(0.6, lineScale(input));
    return line;
}

/// A reference line at each own size of the keys traced one by one (queue sizes or level
/// ceilings), naming the keys that have it: "queue size 8: pro".
void addKeySizeLines(ChartSpec& spec, const ChartInput& input, bool queues, const QString& what) {
    const Trace& trace = *input.result->trace;
    // Each size with the keys that have it, and the colour of the first of them.
    std::map<std::int64_t, std::pair<QStringList, QColor>> keys_by_size;
    for (const AlgorithmSeries& s : input.series->algorithms) {
        if (queues ? !s.releases : s.level_capacity == 0)
            continue;
        for (std::size_t i = 0; i < s.by_key.size(); ++i) {
            const KeySeries& line = s.by_key[i];
            auto& [keys, colour] = keys_by_size[queues ? line.queue_capacity : line.level_capacity];
            const QString key = keyName(trace.key_name(line.key));
            if (keys.isEmpty())
                colour = kKeyColours[i % kMostKeyColours];
            if (!keys.contains(key))
                keys.append(key);
        }
    }
    for (const auto& [size, keys_and_colour] : keys_by_size) {
        const auto& [keys, colour] = keys_and_colour;
        // One size for every key needs no names; past three sizes the names would crowd.
        const bool named = keys_by_size.size() > 1 && keys_by_size.size() <= 3;
        ReferenceLine line{
            named ? ChartText::tr("%1: %2").arg(what.arg(size), keys.join(QStringLiteral(", ")))
                  : what.arg(size),
            static_cast<double>(size), Qt::DashLine};
        // A size of one key alone is drawn in that key's colour.
        if (named && keys.size() == 1)
            line.color = colour;
        spec.references.append(line);
    }
}

ChartSpec loadSpec(const ChartInput& input) {
    const ResultSeries& series = *input.series;
    ChartSpec spec;
    spec.kind = ChartKind::Load;
    const bool summed = summedOverKeys(input);
    spec.title =
        (summed
             ? (series.keys.empty()
                    ? ChartText::tr("Load: accepted cost of all keys in the last %1")
                    : ChartText::tr("Load: accepted cost of the keys chosen in the last %1"))
                   .arg(ticksText(series.window))
             : ChartText::tr("Load: accepted cost in the last %1").arg(ticksText(series.window))) +
        keysShown(input);
    spec.note =
        summed
            ? ChartText::tr(
                  "Summed over the keys, each held to its own L, so no one L applies. "
                  "The leaky bucket counts what it releases.")
            : ChartText::tr("Hatched: more than L in %1. The leaky bucket counts what it releases.")
                  .arg(ticksText(series.window));
    spec.x = timeAxis(input);
    std::int64_t highest = summed ? 1 : 2 * series.limit;
    for (std::size_t lane = 0; lane < series.algorithms.size(); ++lane) {
        const AlgorithmSeries& s = series.algorithms[lane];
        highest = std::max(highest, s.load.max());
        spec.lines.append(laneLine(
            series, lane, toPoints(decimate(s.load, input.from, drawnUntil(input), input.columns)),
            input));
    }
    spec.y = countAxis(ChartText::tr("Accepted cost"), static_cast<double>(highest));
    if (!summed)
        addLimitLines(spec, series.limit);
    addCursor(spec, input);
    return spec;
}

ChartSpec cumulativeSpec(const ChartInput& input) {
    const ResultSeries& series = *input.series;
    ChartSpec spec;
    spec.kind = ChartKind::Cumulative;
    spec.title = ChartText::tr("Cumulative: accepted and rejected cost so far") + keysShown(input);
    spec.x = timeAxis(input);
    std::int64_t accepted_max = 0;
    std::int64_t rejected_max = 0;
    for (std::size_t lane = 0; lane < series.algorithms.size(); ++lane) {
        const AlgorithmSeries& s = series.algorithms[lane];
        accepted_max = std::max(accepted_max, s.accepted.max());
        rejected_max = std::max(rejected_max, s.rejected.max());
        LineSpec accepted = laneLine(
            series, lane,
            toPoints(decimate(s.accepted, input.from, drawnUntil(input), input.columns)), input);
        LineSpec rejected = accepted;
        rejected.points =
            toPoints(decimate(s.rejected, input.from, drawnUntil(input), input.columns), -1.0);
        rejected.in_legend = false;
        spec.lines.append(accepted);
        spec.lines.append(rejected);
    }
    // Rejections are drawn downwards from zero, on one scale with the acceptances.
    const double up = std::max(1.0, static_cast<double>(accepted_max) * 1.08);
    const double down = static_cast<double>(rejected_max) * 1.08;
    // One word, which fits beside a chart as short as 220 px; the note says which side is which.
    AxisSpec y{ChartText::tr("Cost"), 0.0, 0.0, niceStep(up + down, 10, 1.0)};
    y.max = niceCeiling(up, y.step);
    y.min = -niceCeiling(down, y.step);
    spec.y = y;
    spec.note =
        ChartText::tr("Above zero: accepted cost so far. Below zero: rejected cost so far.");
    spec.references.append(ReferenceLine{QString(), 0.0, Qt::SolidLine});
    addCursor(spec, input);
    return spec;
}

ChartSpec queueSpec(const ChartInput& input) {
    const ResultSeries& series = *input.series;
    ChartSpec spec;
    spec.kind = ChartKind::Queue;
    spec.title = ChartText::tr("Shapers: queue length and each request's delay") + keysShown(input);
    spec.x = timeAxis(input);
    const bool per_key = hasKeyLines(series, true);
    std::vector<std::size_t> shapers;
    std::int64_t queue_size = 1;
    // The line is the queue over every key, which with several keys can hold more than one
    // key's queue size: the axis makes room for both.
    std::int64_t highest = 1;
    for (std::size_t lane = 0; lane < series.algorithms.size(); ++lane) {
        const AlgorithmSeries& s = series.algorithms[lane];
        if (!s.releases)
            continue;
        shapers.push_back(lane);
        queue_size = std::max(queue_size, s.queue_capacity);
        highest = std::max(highest, s.queue.max());
        for (const KeySeries& line : s.by_key)
            highest = std::max(highest, line.queue_capacity);
    }
    highest = std::max(highest, per_key ? 1 : queue_size);
    spec.y = countAxis(ChartText::tr("Queued cost"), static_cast<double>(highest));
    if (shapers.empty()) {
        spec.note =
            ChartText::tr("No lane of this comparison queues requests (a leaky bucket does).");
        return spec;
    }
    double longest = 1.0;
    for (const std::size_t lane : shapers) {
        const AlgorithmSeries& shaper = series.algorithms[lane];
        LineSpec queue = laneLine(
            series, lane,
            toPoints(decimate(shaper.queue, input.from, drawnUntil(input), input.columns)), input);
        if (per_key) {
            queue.label = shapers.size() == 1 ? ChartText::tr("Keys together")
                                              : ChartText::tr("%1: keys together").arg(queue.label);
        } else {
            queue.label = shapers.size() == 1 ? ChartText::tr("Queue length")
                                              : ChartText::tr("%1: queue").arg(queue.label);
        }
        queue.width = 3.0 * lineScale(input);
        if (shapers.size() == 1)
            queue.style = Qt::SolidLine;
        spec.lines.append(queue);
        for (std::size_t i = 0; i < shaper.by_key.size(); ++i) {
            LineSpec line = keyLine(input, lane, i, shapers.size(),
                                    toPoints(decimate(shaper.by_key[i].queue, input.from,
                                                      drawnUntil(input), input.columns)));
            // The right-hand axis is the delays', so the legend says each key's queue size.
            line.label =
                ChartText::tr("%1 (size %2)").arg(line.label).arg(shaper.by_key[i].queue_capacity);
            spec.lines.append(line);
        }

        for (const PlotPoint& p : shaper.delays)
            longest = std::max(longest, p.y);
        std::vector<PlotPoint> shown;
        for (const PlotPoint& p :
             decimate(shaper.delays, input.from, drawnUntil(input), input.columns)) {
            if (p.x <= drawnUntil(input))
                shown.push_back(p);
        }
        LineSpec delays;
        delays.group = shapers.size() == 1 ? QStringLiteral("delays") : laneGroup(lane);
        delays.label = shapers.size() == 1
                           ? ChartText::tr("Delay of an accepted request")
                           : ChartText::tr("%1: delays").arg(laneName(shaper.id, shaper.label));
        delays.points = toPoints(shown);
        delays.color = shapers.size() == 1 ? chart_colors::kDelay : queue.color;
        delays.markers_only = true;
        delays.marker = MarkerShape::Diamond;
        delays.marker_size = 9.0;
        delays.secondary_axis = true;
        spec.lines.append(delays);
    }
    spec.y2 = countAxis(ChartText::tr("Delay (ticks)"), longest);
    if (per_key) {
        // Each key's line is held to its own queue size, which its legend entry gives.
        addKeySizeLines(spec, input, true, ChartText::tr("queue size %1"));
        for (ReferenceLine& line : spec.references)
            line.in_legend = false;
        spec.note = ChartText::tr(
            "Thick: units waiting, keys together; thin: each key's own queue. Diamonds: each "
            "accepted request's wait.");
        addCursor(spec, input);
        return spec;
    }
    // The line is one key's queue size under the trace's limits; tiers have sizes of their own.
    // With one key on show, the line is that key's own queue size.
    QString size_label = ChartText::tr("queue size %1").arg(queue_size);
    if (!series.one_key && !input.result->params.keys.empty())
        size_label = ChartText::tr("untiered queue size %1").arg(queue_size);
    else if (!series.one_key && input.result->trace->keys.size() > 1)
        size_label = ChartText::tr("queue size %1 per key").arg(queue_size);
    spec.references.append(ReferenceLine{size_label, static_cast<double>(queue_size)});
    spec.note =
        series.summed
            ? (series.keys.empty()
                   ? ChartText::tr("Line: cost units waiting, over all keys. Diamonds: "
                                   "how long each accepted request waited.")
                   : ChartText::tr("Line: cost units waiting, over the keys chosen. "
                                   "Diamonds: how long each accepted request waited."))
            : ChartText::tr(
                  "Line: cost units waiting. Diamonds: how long each accepted request waited.");
    addCursor(spec, input);
    return spec;
}

ChartSpec bucketSpec(const ChartInput& input) {
    const ResultSeries& series = *input.series;
    const Trace& trace = *input.result->trace;
    ChartSpec spec;
    spec.kind = ChartKind::Bucket;
    spec.title = ChartText::tr("Bucket level: token-bucket tokens and GCRA allowance");
    const bool per_key = hasKeyLines(series, false);
    if (per_key)
        spec.title += ChartText::tr(", key by key");
    else if (trace.keys.size() > 1)
        spec.title += ChartText::tr(" (key \"%1\")")
                          .arg(QString::fromStdString(trace.key_name(series.level_key)));
    spec.x = timeAxis(input);
    std::int64_t capacity = 1;
    std::vector<std::size_t> levels;
    for (std::size_t lane = 0; lane < series.algorithms.size(); ++lane) {
        if (series.algorithms[lane].level_capacity > 0)
            levels.push_back(lane);
    }
    for (std::size_t i = 0; i < levels.size(); ++i) {
        const AlgorithmSeries& s = series.algorithms[levels[i]];
        // The first drawn widest, so that a later line on top of it still shows it.
        const double width = (i == 0 ? 4.0 : 1.8) * std::max(0.6, lineScale(input));
        if (per_key) {
            for (std::size_t k = 0; k < s.by_key.size(); ++k) {
                capacity = std::max(capacity, s.by_key[k].level_capacity);
                LineSpec line = keyLine(input, levels[i], k, levels.size(),
                                        toPoints(decimate(s.by_key[k].level, input.from,
                                                          drawnUntil(input), input.columns)));
                line.width = width;
                spec.lines.append(line);
            }
            continue;
        }
        capacity = std::max(capacity, s.level_capacity);
        LineSpec line = laneLine(
            series, levels[i],
            toPoints(decimate(s.level, input.from, drawnUntil(input), input.columns)), input);
        line.width = width;
        spec.lines.append(line);
    }
    spec.y = countAxis(ChartText::tr("Tokens / allowance"), static_cast<double>(capacity));
    if (per_key) {
        addKeySizeLines(spec, input, false, ChartText::tr("capacity %1"));
    } else {
        spec.references.append(ReferenceLine{ChartText::tr("capacity %1").arg(capacity),
                                             static_cast<double>(capacity), Qt::DashLine});
    }
    if (levels.size() == 2) {
        const AlgorithmSeries& first = series.algorithms[levels[0]];
        const AlgorithmSeries& second = series.algorithms[levels[1]];
        const bool same = per_key ? first.by_key == second.by_key : first.level == second.level;
        if (!same)
            spec.note = ChartText::tr("The lines differ because the two lanes' settings differ.");
        else if (per_key)
            spec.note = ChartText::tr(
                "Each key's two lines coincide: the two limiters are in the same state (GCRA "
                "is a token bucket kept as one time).");
        else
            spec.note = ChartText::tr(
                "The two lines coincide: the two limiters are in the same state (GCRA is a "
                "token bucket kept as one time).");
    } else if (levels.empty()) {
        spec.note = ChartText::tr("No lane of this comparison keeps a bucket level.");
    } else if (per_key) {
        spec.note = ChartText::tr("A line per key, each against its own capacity.");
    }
    addCursor(spec, input);
    return spec;
}

ChartSpec worstSpec(const ChartInput& input) {
    const ResultSeries& series = *input.series;
    ChartSpec spec;
    spec.kind = ChartKind::Worst;
    const bool summed = summedOverKeys(input);
    spec.title =
        (summed ? (series.keys.empty()
                       ? ChartText::tr("Worst burst of all keys together in any %1")
                       : ChartText::tr("Worst burst of the keys chosen together in any %1"))
                      .arg(ticksText(series.window))
                : ChartText::tr("Worst burst: the most accepted in any %1")
                      .arg(ticksText(series.window))) +
        keysShown(input);
    spec.x.title = QString();
    BarsSpec bars;
    std::int64_t highest = summed ? 1 : 2 * series.limit;
    const Tick now = input.now.value_or(series.to);
    for (std::size_t lane = 0; lane < series.algorithms.size(); ++lane) {
        const AlgorithmSeries& s = series.algorithms[lane];
        const std::int64_t worst =
            series.has_decisions ? worst_so_far(s, now, series.to) : s.worst_burst.cost;
        highest = std::max(highest, worst);
        bars.categories.append(laneName(s.id, s.label));
        bars.groups.append(laneGroup(lane));
        bars.values.append(static_cast<double>(worst));
        bars.colors.append(laneStyleAt(series.algorithms, lane).color);
    }
    spec.bars = bars;
    spec.y = countAxis(ChartText::tr("Accepted cost"), static_cast<double>(highest));
    if (!summed)
        addLimitLines(spec, series.limit);
    QStringList notes;
    if (summed)
        notes << ChartText::tr(
            "Each key is held to its own L: the timeline and the table give "
            "each lane's worst key.");
    if (input.now && *input.now < series.to)
        notes << ChartText::tr("So far, up to tick %1.").arg(*input.now);
    spec.note = notes.join(QLatin1Char(' '));
    return spec;
}

}  // namespace

ChartSpec buildChartSpec(ChartKind kind, const ChartInput& input) {
    switch (kind) {
        case ChartKind::Load:
            return loadSpec(input);
        case ChartKind::Cumulative:
            return cumulativeSpec(input);
        case ChartKind::Queue:
            return queueSpec(input);
        case ChartKind::Bucket:
            return bucketSpec(input);
        case ChartKind::Worst:
            return worstSpec(input);
    }
    return loadSpec(input);
}

}  // namespace ratelab::ui
