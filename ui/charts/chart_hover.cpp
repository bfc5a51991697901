#include "charts/chart_hover.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <algorithm>
#include <cmath>

#include "charts/palette.h"
#include "ratelab/registry.h"

namespace ratelab::ui {
namespace {

// The translation context of this file's texts, declared so that lupdate files them under it.
class ChartHoverText {
    Q_DECLARE_TR_FUNCTIONS(ChartHover)
};

QString name(const std::string& id) {
    const AlgorithmInfo* info = Registry::instance().find(id);
    return info ? QCoreApplication::translate("Algorithm", info->name.c_str())
                : QString::fromStdString(id);
}

QString row(const std::string& id, const QString& value) {
    return QStringLiteral("<br><span style=\"color:%1\">&#9632;</span> %2: <b>%3</b>")
        .arg(algorithmColor(id).name(), name(id).toHtmlEscaped(), value);
}

QString number(double value) {
    return QString::number(value, 'f', 2).remove(QRegularExpression(QStringLiteral("\\.?0+$")));
}

QString worstText(const ChartInput& input, double x, const QSet<QString>& hidden) {
    const auto& all = input.series->algorithms;
    const long index = std::lround(x);
    if (index < 0 || index >= static_cast<long>(all.size()))
        return QString();
    const AlgorithmSeries& s = all[static_cast<std::size_t>(index)];
    if (hidden.contains(QString::fromStdString(s.id)))
        return QString();
    const Tick now = input.now.value_or(input.series->to);
    const std::int64_t worst =
        input.series->has_decisions ? worst_so_far(s, now, input.series->to) : s.worst_burst.cost;
    QString text = name(s.id).toHtmlEscaped() + row(s.id, QString::number(worst));
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
    for (const AlgorithmSeries& s : series.algorithms) {
        if (hidden.contains(QString::fromStdString(s.id)))
            continue;
        switch (kind) {
            case ChartKind::Load:
                text += row(s.id, QString::number(s.load.value_at(tick)));
                break;
            case ChartKind::Cumulative:
                text += row(s.id, ChartHoverText::tr("%1 accepted, %2 rejected")
                                      .arg(s.accepted.value_at(tick))
                                      .arg(s.rejected.value_at(tick)));
                break;
            case ChartKind::Queue:
                if (s.id == "leaky_bucket")
                    text += row(s.id, ChartHoverText::tr("%1 queued").arg(s.queue.value_at(tick)));
                break;
            case ChartKind::Bucket:
                if (!s.level.empty())
                    text += row(s.id, number(s.level.value_at(static_cast<double>(tick))));
                break;
            case ChartKind::Worst:
                break;
        }
    }
    if (kind == ChartKind::Queue) {
        if (const AlgorithmSeries* leaky = series.find("leaky_bucket")) {
            const auto& delays = leaky->delays;
            auto it = std::lower_bound(delays.begin(), delays.end(), static_cast<double>(tick),
                                       [](const PlotPoint& p, double at) { return p.x < at; });
            for (; it != delays.end() && it->x == static_cast<double>(tick); ++it) {
                if (!hidden.contains(QStringLiteral("delays")))
                    text +=
                        ChartHoverText::tr("<br>arrived now, waits %1 ticks").arg(number(it->y));
            }
        }
    }
    return text;
}

}  // namespace ratelab::ui
