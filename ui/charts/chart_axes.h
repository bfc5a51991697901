#pragma once
// Axes of the charts: ranges, tick steps, magnitude labels and the reference-line labels.

#include <QString>

QT_BEGIN_NAMESPACE
class QAbstractAxis;
class QCategoryAxis;
class QValueAxis;
QT_END_NAMESPACE

namespace ratelab::ui {

struct AxisSpec;
struct ChartSpec;
struct ChartTheme;

/// The spacing of labelled ticks: 1, 2 or 5 times a power of ten, giving at most `target`
/// intervals over `range`; never below `minimum`.
double niceStep(double range, int target, double minimum);
/// The smallest multiple of `step` that is at least `value`.
double niceCeiling(double value, double step);

/// Title, fonts, colours and grid of any axis.
void styleAxis(QAbstractAxis* axis, const QString& title, const ChartTheme& theme, bool grid);
/// Range and labelled ticks at every `spec.step` from 0.
void applyRange(QValueAxis* axis, const AxisSpec& spec);
/// Labels at every step that read as magnitudes: the cumulative chart draws rejections
/// downwards, and "-4 rejected" would read wrong. The axis keeps `spec`, and once it has been
/// fitted to a plot (fitMagnitudeLabels) it keeps that fit for the new spec.
void applyMagnitudeLabels(QCategoryAxis* axis, const AxisSpec& spec);
/// Thins the magnitude labels to a step at which they fit one above the other in a plot
/// `plot_height` pixels tall: a category axis shortens a label that has less room than its
/// height to "…", so a short chart would show none of them. Does nothing when the step stays.
void fitMagnitudeLabels(QCategoryAxis* axis, double plot_height);
/// The label step fitMagnitudeLabels() uses: `spec.step`, or the smallest nice step above it
/// (1, 2 or 5 times a power of ten) at which labels on its multiples are `label_height` and
/// a small gap apart.
double fittedLabelStep(const AxisSpec& spec, double plot_height, double label_height);
/// A value axis for `spec`; with `magnitudes`, one whose labels drop the sign.
QAbstractAxis* makeValueAxis(const AxisSpec& spec, const ChartTheme& theme, bool grid,
                             bool magnitudes);
/// The right-hand labels of the reference lines, level with them: "L = 4", "2L = 8".
QCategoryAxis* makeReferenceAxis(const ChartSpec& spec, const ChartTheme& theme);

}  // namespace ratelab::ui
