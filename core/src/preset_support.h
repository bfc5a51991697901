#pragma once
// What the library presets (core/src/algorithms/, AlgorithmInfo::is_preset()) share: a tick as
// the library's clock reads it, and a library's floating-point numbers shown as decimals. A
// preset reproduces its library's arithmetic, doubles included; RateLab's own algorithms stay
// exact and do not use this.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "ratelab/model.h"
#include "ratelab/rational.h"

namespace ratelab::detail::preset {

/// The largest clock reading a preset forms, in milliseconds: far past any trace (10^12 ticks of
/// a day each would not fit in 64 bits), so that a clock never overflows.
inline constexpr std::int64_t kMaxClockMs = std::int64_t{1} << 52;

/// The library's clock at `now`, in milliseconds from the trace's start.
inline std::int64_t clock_ms(Tick now, std::int64_t tick_ms) {
    return static_cast<std::int64_t>(
        std::min<Int128>(static_cast<Int128>(now) * tick_ms, kMaxClockMs));
}

/// `ms` milliseconds as ticks of `tick_ms`.
inline Rational ms_as_ticks(std::int64_t ms, std::int64_t tick_ms) {
    return Rational(ms, tick_ms);
}

/// A library's double for display, to six decimals.
inline Rational decimal(double value) {
    if (!std::isfinite(value))
        return Rational(0);
    const double scaled = std::clamp(value * 1e6, -4e18, 4e18);
    return Rational::from_wide(static_cast<Int128>(std::llround(scaled)), 1'000'000);
}

/// A library's double as text, to two decimals.
inline std::string decimal_text(double value) {
    return decimal(value).to_fixed(2);
}

}  // namespace ratelab::detail::preset
