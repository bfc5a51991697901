#include "charts/chart_spec.h"

#include <algorithm>

namespace ratelab::ui {
namespace {

bool sameLines(const QList<LineSpec>& a, const QList<LineSpec>& b) {
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (a[i].group != b[i].group || a[i].label != b[i].label ||
            a[i].markers_only != b[i].markers_only || a[i].secondary_axis != b[i].secondary_axis)
            return false;
    }
    return true;
}

bool sameReferences(const QList<ReferenceLine>& a, const QList<ReferenceLine>& b) {
    if (a.size() != b.size())
        return false;
    for (qsizetype i = 0; i < a.size(); ++i) {
        if (a[i].label != b[i].label || a[i].y != b[i].y || a[i].color != b[i].color)
            return false;
    }
    return true;
}

}  // namespace

QString chartKindName(ChartKind kind) {
    switch (kind) {
        case ChartKind::Load:
            return QStringLiteral("load");
        case ChartKind::Cumulative:
            return QStringLiteral("cumulative");
        case ChartKind::Queue:
            return QStringLiteral("queue");
        case ChartKind::Bucket:
            return QStringLiteral("bucket");
        case ChartKind::Worst:
            return QStringLiteral("worst");
    }
    return QString();
}

std::optional<ChartKind> chartKindFromName(const QString& name) {
    for (const ChartKind kind : kAllChartKinds) {
        if (chartKindName(kind) == name)
            return kind;
    }
    return std::nullopt;
}

bool ChartSpec::sameShape(const ChartSpec& other) const {
    return kind == other.kind && title == other.title && note == other.note &&
           x.title == other.x.title && y.title == other.y.title &&
           y2.has_value() == other.y2.has_value() && sameLines(lines, other.lines) &&
           sameReferences(references, other.references) &&
           over_limit_from == other.over_limit_from && bars.has_value() == other.bars.has_value() &&
           (!bars || bars->categories == other.bars->categories);
}

void cutAtTick(ChartSpec& spec, Tick now) {
    if (spec.bars)
        return;
    const double at = static_cast<double>(now);
    for (LineSpec& line : spec.lines) {
        QList<QPointF>& points = line.points;
        const auto after = std::find_if(points.begin(), points.end(),
                                        [at](const QPointF& p) { return p.x() > at; });
        if (after == points.end())
            continue;
        const qsizetype kept = after - points.begin();
        if (!line.markers_only && kept > 0 && points[kept - 1].x() < at) {
            const QPointF a = points[kept - 1];
            const QPointF b = points[kept];
            points[kept] = QPointF(at, a.y() + (b.y() - a.y()) * (at - a.x()) / (b.x() - a.x()));
            points.resize(kept + 1);
        } else {
            points.resize(kept);
        }
    }
    spec.cursor.reset();
    if (at >= spec.x.min && at <= spec.x.max)
        spec.cursor = at;
}

}  // namespace ratelab::ui
