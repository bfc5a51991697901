#pragma once

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "ratelab/io/trace_file.h"

namespace ratelab::io {

/// A bad pattern name or parameter value.
class GeneratorError : public std::invalid_argument {
public:
    using std::invalid_argument::invalid_argument;
};

struct PatternParameter {
    std::string name;           ///< e.g. "rate"
    std::string default_value;  ///< as text, e.g. "1/2"
    std::string help;
};

/// A traffic pattern that generate_pattern() can produce.
struct PatternInfo {
    std::string id;  ///< e.g. "poisson"
    std::string summary;
    std::vector<PatternParameter> parameters;  ///< every pattern also takes limit and window
};

/// Every pattern, in a fixed order.
const std::vector<PatternInfo>& patterns();

/// Generates pattern `id` with `values` (parameter name -> text; missing ones take their
/// defaults). The same id, values and seed always give the same document, on every machine:
/// the random patterns use their own generator, not the standard library's distributions.
/// Throws GeneratorError for an unknown pattern or parameter or a bad value.
TraceDocument generate_pattern(std::string_view id,
                               const std::map<std::string, std::string>& values,
                               std::uint64_t seed = 1);

}  // namespace ratelab::io
