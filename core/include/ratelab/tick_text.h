#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace ratelab {

/// A number of ticks as descriptions and reports write it: "1 tick", "10 ticks", "2.5 ticks".
/// `number` is the number written out already; only what reads "1" takes the singular.
std::string ticks_text(std::string_view number);
/// The same for a whole number of ticks.
std::string ticks_text(std::int64_t ticks);

}  // namespace ratelab
