#pragma once

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "ratelab/model.h"

namespace ratelab::io::detail {

/// The per-algorithm overrides as they appear under "algorithms" in a trace file.
struct OverrideField {
    const char* algorithm;                          ///< registry id
    const char* name;                               ///< field name in the file
    std::optional<std::int64_t> Overrides::*count;  ///< set for whole-number fields
    std::optional<Rational> Overrides::*rational;   ///< set for rate and interval fields
    const char* meaning;
};
extern const OverrideField kOverrideFields[6];

/// Reads "algorithms" at `path`; throws TraceProblem.
Overrides read_overrides(const nlohmann::ordered_json& node, const std::string& path);
/// Reads a per-key tier {"limit", "window", "algorithms"} at `path`; throws TraceProblem.
Limits read_tier(const nlohmann::ordered_json& node, const std::string& path);
/// A positive exact rational written as an integer or a string like "5/2".
Rational read_rational(const nlohmann::ordered_json& node, std::string_view what,
                       const std::string& path);
std::int64_t read_integer(const nlohmann::ordered_json& node, std::int64_t min, std::int64_t max,
                          std::string_view what, const std::string& path);

/// The "algorithms" object for `overrides` (empty when nothing is overridden).
nlohmann::ordered_json overrides_to_json(const Overrides& overrides);
/// An integer when whole, else the exact string "5/2".
nlohmann::ordered_json rational_to_json(const Rational& value);

}  // namespace ratelab::io::detail
