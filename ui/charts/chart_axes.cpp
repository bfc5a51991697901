#include "charts/chart_axes.h"

#include <QBarCategoryAxis>
#include <QCategoryAxis>
#include <QValueAxis>
#include <cmath>

#include "charts/chart_spec.h"
#include "charts/chart_theme.h"

namespace ratelab::ui {
namespace {

QString labelFormat(double step) {
    if (step >= 1.0 && std::abs(step - std::round(step)) < 1e-9)
        return QStringLiteral("%.0f");
    return QStringLiteral("%.2f");
}

}  // namespace

void styleAxis(QAbstractAxis* axis, const QString& title, const ChartTheme& theme, bool grid) {
    axis->setTitleText(title);
    axis->setTitleFont(theme.axis_title_font);
    axis->setTitleBrush(theme.text);
    axis->setLabelsFont(theme.label_font);
    axis->setLabelsBrush(theme.muted_text);
    axis->setLinePen(QPen(theme.axis_line, 1.0));
    axis->setGridLineVisible(grid);
    axis->setGridLinePen(QPen(theme.grid, 1.0));
    axis->setMinorGridLineVisible(false);
}

void applyRange(QValueAxis* axis, const AxisSpec& spec) {
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0.0);
    // The axis lays out a grid line per tick after each call: a long new range under the old
    // short interval would create (and then destroy) tens of thousands of items. Widen the
    // interval before the range, narrow it after, so no step passes through such a state.
    if (spec.step > axis->tickInterval()) {
        axis->setTickInterval(spec.step);
        axis->setRange(spec.min, spec.max);
    } else {
        axis->setRange(spec.min, spec.max);
        axis->setTickInterval(spec.step);
    }
    axis->setLabelFormat(labelFormat(spec.step));
}

void applyMagnitudeLabels(QCategoryAxis* axis, const AxisSpec& spec) {
    for (const QString& label : axis->categoriesLabels())
        axis->remove(label);
    // The first category starts just below the minimum, so that the minimum gets a label too.
    axis->setStartValue(spec.min - spec.step * 1e-3);
    axis->setRange(spec.min, spec.max);
    for (double v = spec.min; v <= spec.max + spec.step / 2; v += spec.step) {
        const double shown = std::abs(v) < spec.step / 2 ? 0.0 : std::abs(v);
        // Category labels must be unique: pad the negative side with a zero-width space.
        QString label = QString::number(shown, 'g', 12);
        if (v < 0)
            label += QChar(0x200B);
        axis->append(label, v);
    }
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
}

QAbstractAxis* makeValueAxis(const AxisSpec& spec, const ChartTheme& theme, bool grid,
                             bool magnitudes) {
    if (magnitudes) {
        auto* axis = new QCategoryAxis;
        applyMagnitudeLabels(axis, spec);
        styleAxis(axis, spec.title, theme, grid);
        return axis;
    }
    auto* axis = new QValueAxis;
    applyRange(axis, spec);
    styleAxis(axis, spec.title, theme, grid);
    return axis;
}

QCategoryAxis* makeReferenceAxis(const ChartSpec& spec, const ChartTheme& theme) {
    auto* axis = new QCategoryAxis;
    axis->setStartValue(spec.y.min);
    for (const ReferenceLine& ref : spec.references) {
        if (!ref.label.isEmpty())
            axis->append(ref.label, ref.y);
    }
    axis->setRange(spec.y.min, spec.y.max);
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    styleAxis(axis, QString(), theme, false);
    axis->setLabelsBrush(theme.text);
    axis->setLineVisible(false);
    return axis;
}

}  // namespace ratelab::ui
