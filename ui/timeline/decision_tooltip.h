#pragma once

#include <QString>
#include <cstddef>
#include <cstdint>

class QPalette;

#include "ratelab/rational.h"

namespace ratelab::ui {

struct Frame;

/// A duration in ticks and in seconds, e.g. "1.5 ticks (1.5 s)".
QString ticksAndSeconds(const Rational& ticks, std::int64_t tick_ms);

/// Rich text explaining why algorithm `lane` decided request `index` as it did: the state
/// before, the check with its numbers, the state after and the retry time. Asks the core.
/// `palette` is the tooltip's, for outcome colours that read on its background.
QString decisionTooltip(const Frame& frame, std::size_t lane, std::size_t index,
                        const QPalette& palette);
/// Rich text describing one request of the trace and how to edit it.
QString requestTooltip(const Frame& frame, std::size_t index);

}  // namespace ratelab::ui
