#include "params_json.h"

#include <charconv>

#include "json_value.h"
#include "ratelab/limits.h"
#include "trace_problem.h"

namespace ratelab::io::detail {

using Json = nlohmann::ordered_json;

const OverrideField kOverrideFields[6] = {
    {"token_bucket", "capacity", &Overrides::bucket_capacity, nullptr, "tokens the bucket holds"},
    {"token_bucket", "refill_rate", nullptr, &Overrides::refill_rate, "tokens added per tick"},
    {"leaky_bucket", "queue_size", &Overrides::queue_size, nullptr, "cost units the queue holds"},
    {"leaky_bucket", "drain_interval", nullptr, &Overrides::drain_interval,
     "ticks between two released cost units"},
    {"gcra", "burst", &Overrides::gcra_burst, nullptr, "cost accepted at once after a pause"},
    {"gcra", "emission_interval", nullptr, &Overrides::emission_interval, "ticks per cost unit"},
};

namespace {

[[noreturn]] void fail(const std::string& path, const CheckFailure& failure) {
    throw TraceProblem{path, failure.rule, failure.detail};
}

void require_object(const Json& node, std::string_view what, const std::string& path) {
    if (!node.is_object()) {
        std::string storage;
        fail(path, {"wrong-type", std::string(what) + " must be an object, not " +
                                      JsonValue::of(node, storage).kind_name()});
    }
}

std::optional<std::int64_t> parse_digits(std::string_view text) {
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (text.empty() || text.front() == '-' || error != std::errc() ||
        end != text.data() + text.size()) {
        return std::nullopt;
    }
    return value;
}

}  // namespace

std::int64_t read_integer(const Json& node, std::int64_t min, std::int64_t max,
                          std::string_view what, const std::string& path) {
    std::string storage;
    std::int64_t value = 0;
    if (auto failure = check_integer(JsonValue::of(node, storage), min, max, what, value)) {
        fail(path, *failure);
    }
    return value;
}

Rational read_rational(const Json& node, std::string_view what, const std::string& path) {
    if (!node.is_string()) {
        return Rational(read_integer(node, 1, bounds::kMaxRationalPart, what, path));
    }
    const std::string& text = node.get_ref<const std::string&>();
    const std::size_t slash = text.find('/');
    const auto num = parse_digits(std::string_view(text).substr(0, slash));
    const auto den = slash == std::string::npos
                         ? std::optional<std::int64_t>(1)
                         : parse_digits(std::string_view(text).substr(slash + 1));
    if (!num || !den) {
        fail(path, {"bad-rational", std::string(what) +
                                        " must be a whole number or a fraction like \"5/2\", not " +
                                        quote_text(text)});
    }
    if (*num < 1 || *num > bounds::kMaxRationalPart || *den < 1 || *den > bounds::kMaxRationalDen) {
        fail(path, {"out-of-range", std::string(what) + " " + quote_text(text) +
                                        " is out of range: the numerator must be between 1 and " +
                                        std::to_string(bounds::kMaxRationalPart) +
                                        ", the denominator between 1 and " +
                                        std::to_string(bounds::kMaxRationalDen)});
    }
    return Rational(*num, *den);
}

Overrides read_overrides(const Json& node, const std::string& path) {
    require_object(node, "\"algorithms\"", path);
    Overrides overrides;
    for (const auto& [algorithm, settings] : node.items()) {
        const std::string algorithm_path = member_path(path, algorithm);
        bool known_algorithm = false;
        for (const OverrideField& field : kOverrideFields) {
            known_algorithm = known_algorithm || algorithm == field.algorithm;
        }
        if (!known_algorithm) {
            fail(algorithm_path, {"unknown-field",
                                  "only token_bucket, leaky_bucket and gcra have "
                                  "parameters to override, not " +
                                      quote_text(algorithm)});
        }
        require_object(settings, quote_text(algorithm), algorithm_path);
        for (const auto& [name, value] : settings.items()) {
            const OverrideField* match = nullptr;
            for (const OverrideField& field : kOverrideFields) {
                if (algorithm == field.algorithm && name == field.name) {
                    match = &field;
                }
            }
            const std::string field_path = member_path(algorithm_path, name);
            if (!match) {
                std::string known;
                for (const OverrideField& field : kOverrideFields) {
                    if (algorithm == field.algorithm) {
                        known += known.empty() ? quote_text(field.name)
                                               : " or " + quote_text(field.name);
                    }
                }
                fail(field_path, {"unknown-field",
                                  algorithm + " takes " + known + ", not " + quote_text(name)});
            }
            if (match->count) {
                overrides.*(match->count) =
                    read_integer(value, 1, bounds::kMaxLimit, name, field_path);
            } else {
                overrides.*(match->rational) = read_rational(value, name, field_path);
            }
        }
    }
    return overrides;
}

Limits read_tier(const Json& node, const std::string& path) {
    require_object(node, "a key's tier", path);
    Limits limits;
    bool has_limit = false;
    bool has_window = false;
    for (const auto& [name, value] : node.items()) {
        const std::string field_path = member_path(path, name);
        if (name == "limit") {
            limits.limit = read_integer(value, 1, bounds::kMaxLimit, "limit", field_path);
            has_limit = true;
        } else if (name == "window") {
            limits.window = read_integer(value, 1, bounds::kMaxWindow, "window", field_path);
            has_window = true;
        } else if (name == "algorithms") {
            limits.overrides = read_overrides(value, field_path);
        } else {
            fail(field_path, {"unknown-field",
                              "a key's tier has \"limit\", \"window\" and "
                              "\"algorithms\", not " +
                                  quote_text(name)});
        }
    }
    if (!has_limit || !has_window) {
        fail(member_path(path, has_limit ? "window" : "limit"),
             {"missing-field", "a key's tier needs both \"limit\" and \"window\""});
    }
    return limits;
}

Json rational_to_json(const Rational& value) {
    return value.is_integer() ? Json(value.num()) : Json(value.to_string());
}

Json overrides_to_json(const Overrides& overrides) {
    Json out = Json::object();
    for (const OverrideField& field : kOverrideFields) {
        if (field.count && (overrides.*(field.count))) {
            out[field.algorithm][field.name] = *(overrides.*(field.count));
        } else if (field.rational && (overrides.*(field.rational))) {
            out[field.algorithm][field.name] = rational_to_json(*(overrides.*(field.rational)));
        }
    }
    return out;
}

}  // namespace ratelab::io::detail
