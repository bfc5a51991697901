#include "charts/chart_hover.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>

#include "charts/algorithm_names.h"
#include "charts/palette.h"
#include "charts/tick_text.h"
#include "ratelab/registry.h"

namespace ratelab::ui {
namespace {

// The translation context of this file's texts, declared so that lupdate files them under it.
class ChartHoverText {
    Q_DECLARE_TR_FUNCTIONS(ChartHover)
};

QString name(const ResultSeries& series, std::size_t lane) {
    return laneName(series.algorithms[lane].id, series.algorithms[lane].label);
}

QString row(const ResultSeries& series, std::size_t lane, const QString& value) {
    return QStringLiteral("<br><span style=\"color:%1\">&#9632;</span> %2: <b>%3</b>")
        .arg(laneStyleAt(series.algorithms, lane).color.name(), name(series, lane).toHtmlEscaped(),
             value);
}

QString number(double value) {
    return QString::number(value, 'f', 2).remove(QRegularExpression(QStringLiteral("\\.?0+$")));
}

/// "free 1 · pro 2": a value for each key a lane traces one by one, the key's name in its colour.
template <class Value>
QString keyValues(const ChartInput& input, const AlgorithmSeries& s, Value value) {
    QStringList parts;
    for (std::size_t i = 0; i < s.by_key.size(); ++i) {
        const QString key = keyName(input.result->trace->key_name(s.by_key[i].key));
        parts << QStringLiteral("<span style=\"color:%1\">%2</span> %3")
                     .arg(kKeyColours[i % kMostKeyColours].name(), key.toHtmlEscaped(),
                          value(s.by_key[i]));
    }
    return parts.join(QStringLiteral(" · "));
}

QString worstText(const ChartInput& input, double x, const QSet<QString>& hidden) {
    const auto& all = input.series->algorithms;
    const long index = std::lround(x);
    if (index < 0 || index >= static_cast<long>(all.size()))
        return QString();
    const auto lane = static_cast<std::size_t>(index);
    const AlgorithmSeries& s = all[lane];
    if (hidden.contains(laneGroup(lane)))
        return QString();
    const Tick now = input.now.value_or(input.series->to);
    const std::int64_t worst =
        input.series->has_decisions ? worst_so_far(s, now, input.series->to) : s.worst_burst.cost;
    QString text = name(*input.series, lane).toHtmlEscaped() +
                   row(*input.series, lane, QString::number(worst));
    if (now >= input.series->to) {
        text += ChartHoverText::tr("<br>from tick %1, L = %2")
                    .arg(QString::fromStdString(s.worst_burst.start.to_short()))
                    .arg(input.series->limit);
    }
    return text;
}

}  // namespace

QString chartHoverText(ChartKind kind, const ChartInput& input, double x,
                       const QSet<QString>& hidden) {
    if (!input.series || !input.series->has_decisions)
        return QString();
    if (kind == ChartKind::Worst)
        return worstText(input, x, hidden);
    const Tick tick = static_cast<Tick>(std::llround(x));
    QString text = ChartHoverText::tr("<b>t = %1</b>").arg(tick);
    if (input.now && tick > *input.now)
        return text + ChartHoverText::tr("<br>not reached yet");
    const ResultSeries& series = *input.series;
    for (std::size_t lane = 0; lane < series.algorithms.size(); ++lane) {
        const AlgorithmSeries& s = series.algorithms[lane];
        if (hidden.contains(laneGroup(lane)))
            continue;
        switch (kind) {
            case ChartKind::Load:
                text += row(series, lane, QString::number(s.load.value_at(tick)));
                break;
            case ChartKind::Cumulative:
                text += row(series, lane,
                            ChartHoverText::tr("%1 accepted, %2 rejected")
                                .arg(s.accepted.value_at(tick))
                                .arg(s.rejected.value_at(tick)));
                break;
            case ChartKind::Queue:
                if (s.releases) {
                    QString queued = ChartHoverText::tr("%1 queued").arg(s.queue.value_at(tick));
                    if (!s.by_key.empty())
                        queued += ChartHoverText::tr(" (%1)").arg(
                            keyValues(input, s, [tick](const KeySeries& k) {
                                return QString::number(k.queue.value_at(tick));
                            }));
                    text += row(series, lane, queued);
                }
                break;
            case ChartKind::Bucket:
                if (!s.by_key.empty() && s.level_capacity > 0)
                    text += row(series, lane, keyValues(input, s, [tick](const KeySeries& k) {
                                    return number(k.level.value_at(static_cast<double>(tick)));
                                }));
                else if (!s.level.empty())
                    text += row(series, lane, number(s.level.value_at(static_cast<double>(tick))));
                break;
            case ChartKind::Worst:
                break;
        }
    }
    if (kind == ChartKind::Queue && !hidden.contains(QStringLiteral("delays"))) {
        for (std::size_t lane = 0; lane < series.algorithms.size(); ++lane) {
            const auto& delays = series.algorithms[lane].delays;
            auto it = std::lower_bound(delays.begin(), delays.end(), static_cast<double>(tick),
                                       [](const PlotPoint& p, double at) { return p.x < at; });
            for (; it != delays.end() && it->x == static_cast<double>(tick); ++it) {
                if (!hidden.contains(laneGroup(lane)))
                    text += ChartHoverText::tr("<br>%1: arrived now, waits %2")
                                .arg(name(series, lane).toHtmlEscaped(), ticksText(number(it->y)));
            }
        }
    }
    return text;
}

}  // namespace ratelab::ui
