#pragma once

#include <string>

#include <nlohmann/json.hpp>

namespace ratelab::io::detail {

/// `value` on one line with a space after each ':' and ',', e.g. {"limit": 10, "window": 10}:
/// the spacing used throughout RateLab's files.
std::string inline_json(const nlohmann::ordered_json& value);
/// A JSON string literal for `text`, escaped as needed (UTF-8 is kept as is).
std::string json_string(const std::string& text);

}  // namespace ratelab::io::detail
