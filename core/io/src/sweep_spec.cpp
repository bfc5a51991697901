// Sweep axes on the command line, checked against the algorithms' own declarations, so that
// every value a sweep runs is one --lane and the trace file would accept too.
#include "ratelab/io/sweep_spec.h"

#include "ratelab/limits.h"
#include "ratelab/registry.h"

namespace ratelab::io {

namespace {

/// What an axis's values must be: a declared parameter, or L and W as whole numbers.
ParameterInfo declaration_of(const SweepTarget& target) {
    if (target.kind == SweepTarget::Kind::limit) {
        return whole_parameter("limit", "Limit", ParamUnit::cost_units, default_rules::limit(),
                               "L");
    }
    if (target.kind == SweepTarget::Kind::window) {
        ParameterInfo window =
            whole_parameter("window", "Window", ParamUnit::ticks, default_rules::limit(), "W");
        window.max = Rational(bounds::kMaxWindow);
        return window;
    }
    const AlgorithmInfo* info = Registry::instance().find(target.algorithm);
    const ParameterInfo* parameter =
        info == nullptr ? nullptr : find_parameter(info->parameters, target.parameter);
    if (parameter == nullptr) {
        std::string known;
        if (info != nullptr) {
            for (const ParameterInfo& p : info->parameters) {
                known += (known.empty() ? "" : ", ") + info->id + "." + p.id;
            }
        }
        throw SweepSpecError(
            info == nullptr
                ? "unknown algorithm \"" + target.algorithm + "\" (see ratelab-cli algorithms)"
                : target.algorithm + " has no parameter \"" + target.parameter + "\" (it takes " +
                      (known.empty() ? std::string("none") : known) + ")");
    }
    return *parameter;
}

SweepTarget target_of(std::string_view name) {
    SweepTarget target;
    if (name == "limit") {
        return target;
    }
    if (name == "window") {
        target.kind = SweepTarget::Kind::window;
        return target;
    }
    const std::size_t dot = name.find('.');
    if (dot == std::string_view::npos || dot == 0 || dot + 1 == name.size()) {
        throw SweepSpecError("unknown parameter \"" + std::string(name) +
                             "\": vary limit, window or ID.NAME such as token_bucket.capacity");
    }
    target.kind = SweepTarget::Kind::lane_parameter;
    target.algorithm = std::string(name.substr(0, dot));
    target.parameter = std::string(name.substr(dot + 1));
    return target;
}

Rational number(const ParameterInfo& info, std::string_view text) {
    auto parsed = parse_value(info, text);
    if (const auto* problem = std::get_if<std::string>(&parsed)) {
        throw SweepSpecError(*problem);
    }
    return std::get<Rational>(std::get<ParamValue>(parsed));
}

std::vector<ParamValue> range_values(const ParameterInfo& info, std::string_view text) {
    if (info.kind != ParamKind::whole && info.kind != ParamKind::rational) {
        throw SweepSpecError(info.id + " is not a number: list its values as V1,V2");
    }
    const std::size_t dots = text.find("..");
    const std::size_t colon = text.find(':', dots);
    const Rational from = number(info, text.substr(0, dots));
    const Rational to = number(info, text.substr(dots + 2, colon - (dots + 2)));
    Rational step(1);
    if (colon != std::string_view::npos) {
        const std::string_view step_text = text.substr(colon + 1);
        const auto parsed = Rational::parse(step_text);
        if (!parsed) {
            throw SweepSpecError(
                "the step must be a whole number or a fraction such as 1/2, not \"" +
                std::string(step_text) + "\"");
        }
        step = *parsed;
    }
    if (step <= Rational(0)) {
        throw SweepSpecError("the step must be above 0, not " + step.to_string());
    }
    if (info.kind == ParamKind::whole && !step.is_integer()) {
        throw SweepSpecError(info.id + " takes whole numbers, so the step must be whole, not " +
                             step.to_string());
    }
    if (from > to) {
        throw SweepSpecError("the range runs backwards (" + from.to_string() + " > " +
                             to.to_string() + ")");
    }
    // Counted before any value is made: 1..1000000000000 must not fill the memory first.
    const Int128 count = static_cast<Int128>((to - from).num()) * step.den() /
                             (static_cast<Int128>((to - from).den()) * step.num()) +
                         1;
    if (count > static_cast<Int128>(kMaxSweepPoints)) {
        throw SweepSpecError("too many points: at most " + std::to_string(kMaxSweepPoints));
    }
    std::vector<ParamValue> values;
    for (Rational value = from; value <= to; value = value + step) {
        if (auto problem = check_value(info, value)) {
            throw SweepSpecError(*problem);
        }
        values.emplace_back(value);
    }
    return values;
}

std::vector<ParamValue> listed_values(const ParameterInfo& info, std::string_view text) {
    std::vector<ParamValue> values;
    while (true) {
        const std::size_t comma = text.find(',');
        const std::string_view item = text.substr(0, comma);
        if (item.empty()) {
            throw SweepSpecError("an empty value in the list");
        }
        auto parsed = parse_value(info, item);
        if (const auto* problem = std::get_if<std::string>(&parsed)) {
            throw SweepSpecError(*problem);
        }
        values.push_back(std::get<ParamValue>(std::move(parsed)));
        if (values.size() > kMaxSweepPoints) {
            throw SweepSpecError("too many points: at most " + std::to_string(kMaxSweepPoints));
        }
        if (comma == std::string_view::npos) {
            return values;
        }
        text = text.substr(comma + 1);
    }
}

}  // namespace

SweepAxis parse_sweep_axis(std::string_view spec) {
    const std::size_t eq = spec.find('=');
    if (eq == std::string_view::npos || eq == 0 || eq + 1 == spec.size()) {
        throw SweepSpecError("write NAME=A..B[:STEP] or NAME=V1,V2,...");
    }
    SweepAxis axis;
    axis.target = target_of(spec.substr(0, eq));
    const ParameterInfo info = declaration_of(axis.target);
    const std::string_view values = spec.substr(eq + 1);
    axis.values = values.find("..") != std::string_view::npos ? range_values(info, values)
                                                              : listed_values(info, values);
    return axis;
}

std::vector<SweepAxis> parse_sweep_axes(const std::vector<std::string>& specs) {
    std::vector<SweepAxis> axes;
    for (const std::string& spec : specs) {
        try {
            axes.push_back(parse_sweep_axis(spec));
        } catch (const SweepSpecError& error) {
            throw SweepSpecError(spec + ": " + error.what());
        }
        for (std::size_t a = 0; a + 1 < axes.size(); ++a) {
            if (axes[a].target == axes.back().target) {
                throw SweepSpecError(spec + ": " + axes.back().target.name() + " is varied twice");
            }
        }
    }
    std::size_t points = 1;
    for (const SweepAxis& axis : axes) {
        points *= axis.values.size();  // each at most kMaxSweepPoints, so checked as it grows
        if (points > kMaxSweepPoints) {
            throw SweepSpecError("too many points: the axes make more than " +
                                 std::to_string(kMaxSweepPoints));
        }
    }
    return axes;
}

}  // namespace ratelab::io
