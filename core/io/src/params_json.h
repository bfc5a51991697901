#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "ratelab/model.h"
#include "ratelab/registry.h"

namespace ratelab::io::detail {

/// The most lanes a document may have.
inline constexpr std::size_t kMaxLanes = 64;

/// Reads "algorithms" at `path`: values by registered algorithm id and declared parameter id,
/// each of its declared kind and within its bounds. Throws TraceProblem.
AlgorithmParams read_overrides(const nlohmann::ordered_json& node, const std::string& path);
/// Reads one algorithm's values {"capacity": 8, ...} at `path`. Throws TraceProblem.
ParamValues read_values(const AlgorithmInfo& algorithm, const nlohmann::ordered_json& node,
                        const std::string& path);
/// Reads "lanes": [{"algorithm", "params", "label", "hidden"}, ...]. Throws TraceProblem.
std::vector<Lane> read_lanes(const nlohmann::ordered_json& node, const std::string& path);
/// Reads a per-key tier {"limit", "window", "algorithms"} at `path`; throws TraceProblem.
Limits read_tier(const nlohmann::ordered_json& node, const std::string& path);
/// A positive exact rational written as an integer or a string like "5/2".
Rational read_rational(const nlohmann::ordered_json& node, std::string_view what,
                       const std::string& path);
std::int64_t read_integer(const nlohmann::ordered_json& node, std::int64_t min, std::int64_t max,
                          std::string_view what, const std::string& path);

/// The "algorithms" object for `overrides` (empty when nothing is overridden), in the
/// registry's order of algorithms and each algorithm's order of parameters.
nlohmann::ordered_json overrides_to_json(const AlgorithmParams& overrides);
/// A value as the file writes it: a whole number, "5/2", true or false, or a choice's name.
nlohmann::ordered_json value_to_json(const ParamValue& value);
/// `values` in the order `algorithm` declares its parameters.
nlohmann::ordered_json values_to_json(const AlgorithmInfo& algorithm, const ParamValues& values);
/// The "lanes" array.
nlohmann::ordered_json lanes_to_json(const std::vector<Lane>& lanes);
/// An integer when whole, else the exact string "5/2".
nlohmann::ordered_json rational_to_json(const Rational& value);

}  // namespace ratelab::io::detail
