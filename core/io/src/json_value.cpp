#include "json_value.h"

#include <cmath>
#include <cstdlib>

#include "ratelab/limits.h"
#include "trace_problem.h"

namespace ratelab::io::detail {

JsonValue JsonValue::of(const nlohmann::ordered_json& node, std::string& storage) {
    switch (node.type()) {
        case nlohmann::ordered_json::value_t::boolean:
            return of_bool(node.get<bool>());
        case nlohmann::ordered_json::value_t::number_unsigned:
            return of_unsigned(node.get<std::uint64_t>());
        case nlohmann::ordered_json::value_t::number_integer:
            return of_negative(node.get<std::int64_t>());
        case nlohmann::ordered_json::value_t::number_float:
            storage = node.dump();
            return of_float(storage);
        case nlohmann::ordered_json::value_t::string:
            return of_string(node.get_ref<const std::string&>());
        case nlohmann::ordered_json::value_t::object:
            return {Kind::kObject, false, 0, 0, nullptr};
        case nlohmann::ordered_json::value_t::array:
            return {Kind::kArray, false, 0, 0, nullptr};
        default:
            return {};
    }
}

const char* JsonValue::kind_name() const {
    switch (kind) {
        case Kind::kBool:
            return "a boolean";
        case Kind::kUnsigned:
        case Kind::kNegative:
        case Kind::kFloat:
            return "a number";
        case Kind::kString:
            return "a string";
        case Kind::kObject:
            return "an object";
        case Kind::kArray:
            return "an array";
        default:
            return "null";
    }
}

nlohmann::ordered_json JsonValue::to_json() const {
    switch (kind) {
        case Kind::kBool:
            return boolean;
        case Kind::kUnsigned:
            return unsigned_value;
        case Kind::kNegative:
            return negative_value;
        case Kind::kFloat:
            return std::strtod(text->c_str(), nullptr);
        case Kind::kString:
            return *text;
        default:
            return nullptr;
    }
}

std::optional<CheckFailure> check_integer(const JsonValue& v, std::int64_t min, std::int64_t max,
                                          std::string_view what, std::int64_t& out) {
    const auto range = [&](const std::string& got) {
        return CheckFailure{"out-of-range", std::string(what) + " must be between " +
                                                std::to_string(min) + " and " +
                                                std::to_string(max) + ", not " + got};
    };
    switch (v.kind) {
        case JsonValue::Kind::kUnsigned:
            if (v.unsigned_value > static_cast<std::uint64_t>(max) ||
                static_cast<std::int64_t>(v.unsigned_value) < min) {
                return range(std::to_string(v.unsigned_value));
            }
            out = static_cast<std::int64_t>(v.unsigned_value);
            return std::nullopt;
        case JsonValue::Kind::kNegative:
            if (v.negative_value < min || v.negative_value > max) {
                return range(std::to_string(v.negative_value));
            }
            out = v.negative_value;
            return std::nullopt;
        case JsonValue::Kind::kFloat:
            // An integer too large for 64 bits arrives as a float. Judged by its value, not its
            // text, because a value kept in a tree (limit, window, tiers, overrides) has lost the
            // text it was written as. Every double this large is a whole number anyway.
            if (std::fabs(std::strtod(v.text->c_str(), nullptr)) >= 0x1p63) {
                return range(*v.text);
            }
            return CheckFailure{"not-integer",
                                std::string(what) + " must be a whole number, not " + *v.text};
        default:
            return CheckFailure{"wrong-type",
                                std::string(what) + " must be a number, not " + v.kind_name()};
    }
}

std::optional<CheckFailure> check_string(const JsonValue& v, std::string_view what) {
    if (v.kind != JsonValue::Kind::kString) {
        return CheckFailure{"wrong-type",
                            std::string(what) + " must be a string, not " + v.kind_name()};
    }
    return std::nullopt;
}

std::optional<CheckFailure> check_key(const JsonValue& v, std::string_view what) {
    if (auto failure = check_string(v, what)) {
        return failure;
    }
    if (v.text->size() > bounds::kMaxKeyBytes) {
        return CheckFailure{"key-too-long",
                            std::string(what) + " is " + std::to_string(v.text->size()) +
                                " bytes long; the most is " + std::to_string(bounds::kMaxKeyBytes)};
    }
    return std::nullopt;
}

}  // namespace ratelab::io::detail
