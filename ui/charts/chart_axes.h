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

/// Title, fonts, colours and grid of any axis.
void styleAxis(QAbstractAxis* axis, const QString& title, const ChartTheme& theme, bool grid);
/// Range and labelled ticks at every `spec.step` from 0.
void applyRange(QValueAxis* axis, const AxisSpec& spec);
/// Labels at every step that read as magnitudes: the cumulative chart draws rejections
/// downwards, and "-4 rejected" would read wrong.
void applyMagnitudeLabels(QCategoryAxis* axis, const AxisSpec& spec);
/// A value axis for `spec`; with `magnitudes`, one whose labels drop the sign.
QAbstractAxis* makeValueAxis(const AxisSpec& spec, const ChartTheme& theme, bool grid,
                             bool magnitudes);
/// The right-hand labels of the reference lines, level with them: "L = 4", "2L = 8".
QCategoryAxis* makeReferenceAxis(const ChartSpec& spec, const ChartTheme& theme);

}  // namespace ratelab::ui
