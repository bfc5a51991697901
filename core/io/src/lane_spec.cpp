// Lanes on the command line: `ID[:NAME=VALUE,...]`, checked against the algorithm's own
// declarations, so that a lane the CLI accepts is one the trace file and the app accept too.
#include "ratelab/io/lane_spec.h"

#include "ratelab/registry.h"
#include "trace_problem.h"

namespace ratelab::io {

namespace {

std::string known_ids() {
    std::string known;
    for (const std::string& id : Registry::instance().ids()) {
        known += (known.empty() ? "" : ", ") + id;
    }
    return known;
}

std::string declared_names(const AlgorithmInfo& info) {
    std::string names;
    for (const ParameterInfo& parameter : info.parameters) {
        names += (names.empty() ? "" : ", ") + parameter.id;
    }
    return names.empty() ? "no parameters" : names;
}

}  // namespace

Lane parse_lane_spec(std::string_view spec) {
    const std::size_t colon = spec.find(':');
    Lane lane;
    lane.algorithm = std::string(spec.substr(0, colon));
    const AlgorithmInfo* info = Registry::instance().find(lane.algorithm);
    if (info == nullptr) {
        throw LaneSpecError("unknown algorithm " + detail::quote_text(lane.algorithm) +
                            " (known: " + known_ids() + ")");
    }
    if (colon == std::string_view::npos) {
        return lane;
    }
    std::string_view rest = spec.substr(colon + 1);
    while (!rest.empty()) {
        const std::size_t comma = rest.find(',');
        const std::string_view item = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        const std::size_t eq = item.find('=');
        if (eq == std::string_view::npos || eq == 0) {
            throw LaneSpecError(detail::quote_text(item) + " is not NAME=VALUE");
        }
        const std::string name(item.substr(0, eq));
        const std::string_view value = item.substr(eq + 1);
        if (name == "label") {
            lane.label = std::string(value);
            continue;
        }
        const ParameterInfo* parameter = find_parameter(info->parameters, name);
        if (parameter == nullptr) {
            throw LaneSpecError(info->id + " has no parameter " + detail::quote_text(name) +
                                " (it takes " + declared_names(*info) + ")");
        }
        if (lane.params.count(name) != 0) {
            throw LaneSpecError(detail::printable(name) + " is given twice");
        }
        auto parsed = parse_value(*parameter, value);
        if (const auto* problem = std::get_if<std::string>(&parsed)) {
            throw LaneSpecError(*problem);
        }
        lane.params[name] = std::get<ParamValue>(std::move(parsed));
    }
    return lane;
}

std::vector<Lane> parse_lane_specs(const std::vector<std::string>& specs) {
    std::vector<Lane> lanes;
    for (std::size_t i = 0; i < specs.size(); ++i) {
        try {
            lanes.push_back(parse_lane_spec(specs[i]));
        } catch (const LaneSpecError& error) {
            throw LaneSpecError("lane " + std::to_string(i + 1) + " (" + specs[i] +
                                "): " + error.what());
        }
    }
    return lanes;
}

std::string lane_spec(const Lane& lane) {
    std::string spec = lane.algorithm;
    std::string settings;
    if (const AlgorithmInfo* info = Registry::instance().find(lane.algorithm)) {
        for (const ParameterInfo& parameter : info->parameters) {
            if (const auto it = lane.params.find(parameter.id); it != lane.params.end()) {
                settings +=
                    (settings.empty() ? "" : ",") + parameter.id + "=" + to_text(it->second);
            }
        }
    }
    if (!lane.label.empty()) {
        settings += (settings.empty() ? "" : ",") + std::string("label=") + lane.label;
    }
    return settings.empty() ? spec : spec + ":" + settings;
}

}  // namespace ratelab::io
