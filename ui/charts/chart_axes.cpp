#include "charts/chart_axes.h"

#include <QBarCategoryAxis>
#include <QCategoryAxis>
#include <QFontMetricsF>
#include <QValueAxis>
#include <algorithm>
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

// What a magnitude axis was made from, and the plot height it was last fitted to.
constexpr char kMagnitudeMin[] = "ratelab_magnitude_min";
constexpr char kMagnitudeMax[] = "ratelab_magnitude_max";
constexpr char kMagnitudeStep[] = "ratelab_magnitude_step";
constexpr char kLabelledStep[] = "ratelab_labelled_step";
constexpr char kFittedHeight[] = "ratelab_fitted_height";

double labelHeight(const QAbstractAxis* axis) {
    return QFontMetricsF(axis->labelsFont()).height();
}

/// Labels at every multiple of `spec.step` from `spec.min` to `spec.max`, zero among them.
void labelMagnitudes(QCategoryAxis* axis, const AxisSpec& spec) {
    for (const QString& label : axis->categoriesLabels())
        axis->remove(label);
    // The first category starts just below the minimum, so that the minimum gets a label too.
    axis->setStartValue(spec.min - spec.step * 1e-3);
    axis->setRange(spec.min, spec.max);
    const double first = std::ceil(spec.min / spec.step - 1e-9) * spec.step;
    for (double v = first; v <= spec.max + spec.step * 1e-6; v += spec.step) {
        const double shown = std::abs(v) < spec.step / 2 ? 0.0 : std::abs(v);
        // Category labels must be unique: pad the negative side with a zero-width space.
        QString label = QString::number(shown, 'g', 12);
        if (v < 0)
            label += QChar(0x200B);
        axis->append(label, v);
    }
    axis->setLabelsPosition(QCategoryAxis::AxisLabelsPositionOnValue);
    axis->setProperty(kLabelledStep, spec.step);
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
    axis->setProperty(kMagnitudeMin, spec.min);
    axis->setProperty(kMagnitudeMax, spec.max);
    axis->setProperty(kMagnitudeStep, spec.step);
    const QVariant fitted_to = axis->property(kFittedHeight);
    AxisSpec shown = spec;
    if (fitted_to.isValid())
        shown.step = fittedLabelStep(spec, fitted_to.toDouble(), labelHeight(axis));
    labelMagnitudes(axis, shown);
}

void fitMagnitudeLabels(QCategoryAxis* axis, double plot_height) {
    const QVariant step = axis->property(kMagnitudeStep);
    if (!step.isValid() || !(plot_height > 0.0))
        return;
    const AxisSpec spec{QString(), axis->property(kMagnitudeMin).toDouble(),
                        axis->property(kMagnitudeMax).toDouble(), step.toDouble()};
    axis->setProperty(kFittedHeight, plot_height);
    const double fitted = fittedLabelStep(spec, plot_height, labelHeight(axis));
    if (fitted == axis->property(kLabelledStep).toDouble())
        return;
    AxisSpec shown = spec;
    shown.step = fitted;
    labelMagnitudes(axis, shown);
}

double fittedLabelStep(const AxisSpec& spec, double plot_height, double label_height) {
    if (!(spec.max > spec.min) || !(spec.step > 0.0))
        return spec.step;
    // Labels sit on the multiples of the step (zero among them), one label height apart at
    // least, with a little air between them.
    const double room = label_height + 3.0;
    const auto labels = [&spec](double step) {
        return std::floor(spec.max / step + 1e-9) - std::ceil(spec.min / step - 1e-9) + 1.0;
    };
    double step = spec.step;
    for (int i = 0; labels(step) > 1.0 && labels(step) * room > plot_height && i < 30; ++i) {
        // The next of 1, 2 and 5 times a power of ten.
        const double mantissa = step / std::pow(10.0, std::floor(std::log10(step) + 1e-9));
        step *= mantissa < 1.5 ? 2.0 : mantissa < 3.0 ? 2.5 : 2.0;
    }
    return step;
}

QAbstractAxis* makeValueAxis(const AxisSpec& spec, const ChartTheme& theme, bool grid,
                             bool magnitudes) {
    if (magnitudes) {
        auto* axis = new QCategoryAxis;
        applyMagnitudeLabels(axis, spec);
        styleAxis(axis, spec.title, theme, grid);
        // Qt would shorten each label to the plot's height shared among all of them, less
        // padding, which is stricter than labels need; fitMagnitudeLabels() spaces them instead.
        axis->setTruncateLabels(false);
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

double niceStep(double range, int target, double minimum) {
    if (!(range > 0.0))
        return minimum;
    const double raw = range / std::max(target, 1);
    const double power = std::pow(10.0, std::floor(std::log10(raw)));
    double step = 10.0 * power;
    for (const double factor : {1.0, 2.0, 5.0}) {
        if (factor * power >= raw) {
            step = factor * power;
            break;
        }
    }
    return std::max(step, minimum);
}

double niceCeiling(double value, double step) {
    return std::ceil(value / step - 1e-9) * step;
}

}  // namespace ratelab::ui
