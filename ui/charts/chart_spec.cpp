#include "charts/chart_spec.h"

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

}  // namespace ratelab::ui
