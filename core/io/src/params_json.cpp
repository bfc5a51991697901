#include "params_json.h"

#include <charconv>

#include "json_value.h"
#include "ratelab/limits.h"
#include "ratelab/registry.h"
#include "trace_problem.h"

namespace ratelab::io::detail {

using Json = nlohmann::ordered_json;

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

/// `least` is the smallest numerator: 1, or 0 for a parameter that may be 0 (a max_wait).
Rational read_rational(const Json& node, std::string_view what, const std::string& path,
                       std::int64_t least = 1) {
    if (!node.is_string()) {
        return Rational(read_integer(node, least, bounds::kMaxRationalPart, what, path));
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
    if (*num < least || *num > bounds::kMaxRationalPart || *den < 1 ||
        *den > bounds::kMaxRationalDen) {
        fail(path,
             {"out-of-range",
              std::string(what) + " " + quote_text(text) +
                  " is out of range: the numerator must be between " + std::to_string(least) +
                  " and " + std::to_string(bounds::kMaxRationalPart) +
                  ", the denominator between 1 and " + std::to_string(bounds::kMaxRationalDen)});
    }
    return Rational(*num, *den);
}

ParamValue read_value(const ParameterInfo& info, const Json& node, const std::string& path) {
    switch (info.kind) {
        case ParamKind::whole:
            return Rational(read_integer(node, info.min.num(), info.max.num(), info.id, path));
        case ParamKind::rational: {
            const Rational value = read_rational(node, info.id, path, info.min.num() <= 0 ? 0 : 1);
            if (auto problem = check_value(info, value)) {
                fail(path, {"out-of-range", *problem});
            }
            return value;
        }
        case ParamKind::flag:
            if (!node.is_boolean()) {
                fail(path, {"wrong-type", info.id + " must be true or false"});
            }
            return node.get<bool>();
        case ParamKind::choice: {
            if (!node.is_string()) {
                fail(path, {"wrong-type", info.id + " must be a string"});
            }
            const ParamValue value = node.get<std::string>();
            if (auto problem = check_value(info, value)) {
                fail(path, {"unknown-choice", *problem});
            }
            return value;
        }
    }
    return Rational(1);
}

const AlgorithmInfo& read_algorithm_id(const std::string& id, const std::string& path) {
    const AlgorithmInfo* info = Registry::instance().find(id);
    if (info == nullptr) {
        std::string known;
        for (const std::string& name : Registry::instance().ids()) {
            known += (known.empty() ? "" : ", ") + name;
        }
        fail(path, {"unknown-algorithm",
                    "no algorithm is called " + quote_text(id) + " (known: " + known + ")"});
    }
    return *info;
}

ParamValues read_values(const AlgorithmInfo& algorithm, const Json& node, const std::string& path) {
    require_object(node, quote_text(algorithm.id), path);
    ParamValues values;
    for (const auto& [name, value] : node.items()) {
        const std::string field_path = member_path(path, name);
        const ParameterInfo* info = find_parameter(algorithm.parameters, name);
        if (info == nullptr) {
            std::string known;
            for (const ParameterInfo& parameter : algorithm.parameters) {
                known +=
                    known.empty() ? quote_text(parameter.id) : " or " + quote_text(parameter.id);
            }
            fail(field_path,
                 {"unknown-field",
                  known.empty() ? algorithm.id + " has no parameters, so not " + quote_text(name)
                                : algorithm.id + " takes " + known + ", not " + quote_text(name)});
        }
        values[name] = read_value(*info, value, field_path);
    }
    return values;
}

AlgorithmParams read_overrides(const Json& node, const std::string& path) {
    require_object(node, "\"algorithms\"", path);
    AlgorithmParams overrides;
    for (const auto& [algorithm, settings] : node.items()) {
        const std::string algorithm_path = member_path(path, algorithm);
        const AlgorithmInfo* info = Registry::instance().find(algorithm);
        if (info == nullptr || info->parameters.empty()) {
            std::string with_parameters;
            for (const AlgorithmInfo* known : Registry::instance().all()) {
                if (!known->parameters.empty()) {
                    with_parameters += (with_parameters.empty() ? "" : ", ") + known->id;
                }
            }
            fail(algorithm_path, {"unknown-field", "only " + with_parameters +
                                                       " have parameters to override, not " +
                                                       quote_text(algorithm)});
        }
        ParamValues values = read_values(*info, settings, algorithm_path);
        if (!values.empty()) {
            overrides[algorithm] = std::move(values);
        }
    }
    return overrides;
}

std::vector<Lane> read_lanes(const Json& node, const std::string& path) {
    if (!node.is_array()) {
        std::string storage;
        fail(path, {"wrong-type", std::string("\"lanes\" must be an array, not ") +
                                      JsonValue::of(node, storage).kind_name()});
    }
    if (node.empty()) {
        fail(path, {"out-of-range", "\"lanes\" needs at least one lane"});
    }
    if (node.size() > kMaxLanes) {
        fail(path, {"out-of-range", "at most " + std::to_string(kMaxLanes) + " lanes, not " +
                                        std::to_string(node.size())});
    }
    std::vector<Lane> lanes;
    for (std::size_t i = 0; i < node.size(); ++i) {
        const std::string lane_path = index_path(path, i);
        require_object(node[i], "a lane", lane_path);
        Lane lane;
        const Json* params = nullptr;
        bool has_algorithm = false;
        for (const auto& [name, value] : node[i].items()) {
            const std::string field_path = member_path(lane_path, name);
            if (name == "algorithm") {
                if (!value.is_string()) {
                    fail(field_path, {"wrong-type", "a lane's \"algorithm\" must be a string"});
                }
                lane.algorithm = value.get<std::string>();
                has_algorithm = true;
            } else if (name == "params") {
                params = &value;
            } else if (name == "label") {
                if (!value.is_string()) {
                    fail(field_path, {"wrong-type", "a lane's \"label\" must be a string"});
                }
                lane.label = value.get<std::string>();
            } else if (name == "hidden") {
                if (!value.is_boolean()) {
                    fail(field_path, {"wrong-type", "a lane's \"hidden\" must be true or false"});
                }
                lane.hidden = value.get<bool>();
            } else {
                fail(field_path, {"unknown-field",
                                  "a lane has \"algorithm\", \"params\", \"label\" and "
                                  "\"hidden\", not " +
                                      quote_text(name)});
            }
        }
        if (!has_algorithm) {
            fail(member_path(lane_path, "algorithm"),
                 {"missing-field", "a lane needs \"algorithm\", a registered algorithm id"});
        }
        const AlgorithmInfo& info =
            read_algorithm_id(lane.algorithm, member_path(lane_path, "algorithm"));
        if (params != nullptr) {
            lane.params = read_values(info, *params, member_path(lane_path, "params"));
        }
        lanes.push_back(std::move(lane));
    }
    return lanes;
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

Json value_to_json(const ParamValue& value) {
    if (const auto* number = std::get_if<Rational>(&value)) {
        return rational_to_json(*number);
    }
    if (const auto* flag = std::get_if<bool>(&value)) {
        return *flag;
    }
    return std::get<std::string>(value);
}

/// `values` in the order `algorithm` declares its parameters.
Json values_to_json(const AlgorithmInfo& algorithm, const ParamValues& values) {
    Json out = Json::object();
    for (const ParameterInfo& parameter : algorithm.parameters) {
        if (const auto it = values.find(parameter.id); it != values.end()) {
            out[parameter.id] = value_to_json(it->second);
        }
    }
    return out;
}

Json overrides_to_json(const AlgorithmParams& overrides) {
    Json out = Json::object();
    // In display order, as the registry lists the algorithms, whatever the map's order; the
    // presets after RateLab's own.
    std::vector<const AlgorithmInfo*> listed = Registry::instance().all();
    for (const AlgorithmInfo* extra : Registry::instance().opt_in()) {
        listed.push_back(extra);
    }
    for (const AlgorithmInfo* preset : Registry::instance().presets()) {
        listed.push_back(preset);
    }
    for (const AlgorithmInfo* info : listed) {
        const auto it = overrides.find(info->id);
        if (it == overrides.end() || it->second.empty()) {
            continue;
        }
        out[info->id] = values_to_json(*info, it->second);
    }
    return out;
}

Json lanes_to_json(const std::vector<Lane>& lanes) {
    Json out = Json::array();
    for (const Lane& lane : lanes) {
        Json entry = {{"algorithm", lane.algorithm}};
        if (!lane.params.empty()) {
            entry["params"] =
                values_to_json(*Registry::instance().find(lane.algorithm), lane.params);
        }
        if (!lane.label.empty()) {
            entry["label"] = lane.label;
        }
        if (lane.hidden) {
            entry["hidden"] = true;
        }
        out.push_back(std::move(entry));
    }
    return out;
}

}  // namespace ratelab::io::detail
