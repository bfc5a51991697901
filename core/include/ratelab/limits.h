#pragma once

#include <cstddef>
#include <cstdint>

namespace ratelab::bounds {

// The largest values the core accepts. They are chosen so that every product the algorithms form
// (scaled tokens, scaled time, L*W, window sums) fits in 64 bits, with 128-bit intermediates where
// two large factors meet. Loaders enforce them; `validate()` rejects parameters outside them.

inline constexpr std::int64_t kMaxTick = 1'000'000'000'000;    ///< 10^12 ticks
inline constexpr std::int64_t kMaxCost = 1'000'000;            ///< per request
inline constexpr std::int64_t kMaxLimit = 1'000'000;           ///< L, capacity, queue size, burst
inline constexpr std::int64_t kMaxWindow = 1'000'000'000'000;  ///< W in ticks
/// Numerators and denominators of rate and interval overrides.
inline constexpr std::int64_t kMaxRationalPart = 1'000'000'000'000;
inline constexpr std::int64_t kMaxRationalDen = 1'000'000;
inline constexpr std::size_t kMaxRequests = 50'000'000;
inline constexpr std::size_t kMaxKeys = 10'000'000;
inline constexpr std::size_t kMaxKeyBytes = 256;
/// Notes pinned to a trace's ticks, and the bytes of one note's text.
inline constexpr std::size_t kMaxNotes = 1'000;
inline constexpr std::size_t kMaxNoteBytes = 200;

}  // namespace ratelab::bounds
