#pragma once

#include <QString>
#include <QtGlobal>

namespace ratelab::ui {

/// A number of ticks as the app writes it: "1 tick", "10 ticks", "2.5 ticks". `number` is the
/// number already written out; only what reads "1" takes the singular.
QString ticksText(const QString& number);
/// The same for a whole number of ticks.
QString ticksText(qint64 ticks);
/// What follows the number in ticksText(): " tick" or " ticks", for a spin box's suffix.
QString ticksSuffix(qint64 ticks);

}  // namespace ratelab::ui
