#pragma once

#include <string>

#include "ratelab/series.h"

namespace ratelab::test {

/// The series' values at ticks [from, to] as text, e.g. "0 1 2", to compare whole runs at once.
inline std::string values(const StepSeries& series, Tick from, Tick to) {
    std::string text;
    for (Tick t = from; t <= to; ++t)
        text += (t == from ? "" : " ") + std::to_string(series.value_at(t));
    return text;
}

}  // namespace ratelab::test
