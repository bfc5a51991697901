#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace ratelab::io::detail {

/// One scalar JSON value as the streaming parser reports it (or as taken from a tree), so that
/// both paths check numbers and strings with the same rules and messages.
struct JsonValue {
    enum class Kind { kNull, kBool, kUnsigned, kNegative, kFloat, kString, kObject, kArray };
    Kind kind = Kind::kNull;
    bool boolean = false;
    std::uint64_t unsigned_value = 0;
    std::int64_t negative_value = 0;
    const std::string* text = nullptr;  ///< the string, or the number as written for kFloat

    static JsonValue of_bool(bool b) { return {Kind::kBool, b, 0, 0, nullptr}; }
    static JsonValue of_unsigned(std::uint64_t v) {
        return {Kind::kUnsigned, false, v, 0, nullptr};
    }
    static JsonValue of_negative(std::int64_t v) { return {Kind::kNegative, false, 0, v, nullptr}; }
    static JsonValue of_float(const std::string& raw) { return {Kind::kFloat, false, 0, 0, &raw}; }
    static JsonValue of_string(const std::string& s) { return {Kind::kString, false, 0, 0, &s}; }
    /// A view of `node`; `storage` keeps the text of a float alive.
    static JsonValue of(const nlohmann::ordered_json& node, std::string& storage);

    /// "a string", "a number", "an object"... for messages.
    const char* kind_name() const;
    nlohmann::ordered_json to_json() const;
};

/// Why a value failed a check: the rule and the sentence. The caller adds the location.
struct CheckFailure {
    std::string rule;
    std::string detail;
};

/// A whole number in [min, max], or why not. `what` names the value, e.g. "tick".
std::optional<CheckFailure> check_integer(const JsonValue& v, std::int64_t min, std::int64_t max,
                                          std::string_view what, std::int64_t& out);
/// A string, or why not.
std::optional<CheckFailure> check_string(const JsonValue& v, std::string_view what);
/// A key name: a string of at most bounds::kMaxKeyBytes bytes.
std::optional<CheckFailure> check_key(const JsonValue& v, std::string_view what);

}  // namespace ratelab::io::detail
