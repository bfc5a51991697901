// ratelab-cli algorithms: every registered algorithm and the parameters it declares, read from
// the registry, so that a new algorithm file shows up here without any other change.
#include <nlohmann/json.hpp>
#include <ostream>

#include "cli_support.h"
#include "ratelab/registry.h"

namespace ratelab::cli {

namespace {

using Json = nlohmann::ordered_json;

Json bound_json(const ParameterInfo& parameter, const Rational& bound) {
    if (parameter.kind != ParamKind::whole && parameter.kind != ParamKind::rational) {
        return nullptr;
    }
    return bound.is_integer() ? Json(bound.num()) : Json(bound.to_string());
}

Json parameter_json(const ParameterInfo& parameter) {
    Json out = {{"name", parameter.id},
                {"display_name", parameter.name},
                {"kind", std::string(kind_name(parameter.kind))},
                {"unit", std::string(unit_name(parameter.unit))},
                {"default", parameter.default_rule.text},
                {"min", bound_json(parameter, parameter.min)},
                {"max", bound_json(parameter, parameter.max)},
                {"description", parameter.description}};
    if (parameter.kind == ParamKind::choice) {
        out["choices"] = parameter.choices;
    }
    return out;
}

std::string bounds_text(const ParameterInfo& parameter) {
    switch (parameter.kind) {
        case ParamKind::whole:
        case ParamKind::rational:
            return parameter.min.to_string() + " to " + parameter.max.to_string();
        case ParamKind::flag:
            return "yes or no";
        case ParamKind::choice: {
            std::string text;
            for (const std::string& choice : parameter.choices) {
                text += (text.empty() ? "" : " | ") + choice;
            }
            return text;
        }
    }
    return "";
}

Json algorithm_json(const AlgorithmInfo& info) {
    Json parameters = Json::array();
    for (const ParameterInfo& parameter : info.parameters) {
        parameters.push_back(parameter_json(parameter));
    }
    Json out = {{"id", info.id}, {"name", info.name}, {"summary", info.summary}};
    if (info.is_preset()) {
        out["library"] = info.library;
        out["version"] = info.library_version;
    }
    out["releases"] = info.releases;
    out["parameters"] = std::move(parameters);
    return out;
}

std::string algorithm_text(const AlgorithmInfo& info) {
    std::string text = info.id + "  (" + info.name + ")\n";
    if (info.is_preset()) {
        text += "  reproduces " + info.library + " " + info.library_version + "\n";
    }
    text += "  " + info.summary + "\n";
    if (info.parameters.empty()) {
        text += "  no parameters of its own: it reads L and W\n";
    }
    for (const ParameterInfo& parameter : info.parameters) {
        const std::string_view unit = unit_name(parameter.unit);
        text += "  " + parameter.id + " (" + std::string(kind_name(parameter.kind)) +
                (unit.empty() ? "" : ", " + std::string(unit)) + ", default " +
                parameter.default_rule.text + ", " + bounds_text(parameter) +
                "): " + parameter.description + "\n";
    }
    return text + "\n";
}

int run_algorithms(const Arguments& args, CommandIo& io) {
    const Registry& registry = Registry::instance();
    if (args.has("json")) {
        Json list = Json::array();
        for (const AlgorithmInfo* info : registry.all()) {
            list.push_back(algorithm_json(*info));
        }
        Json presets = Json::array();
        for (const AlgorithmInfo* info : registry.presets()) {
            presets.push_back(algorithm_json(*info));
        }
        Json opt_in = Json::array();
        for (const AlgorithmInfo* info : registry.opt_in()) {
            opt_in.push_back(algorithm_json(*info));
        }
        write_output(args,
                     Json{{"algorithms", std::move(list)},
                          {"presets", std::move(presets)},
                          {"opt_in", std::move(opt_in)}}
                             .dump(2) +
                         "\n",
                     io);
        return kExitOk;
    }
    std::string text;
    for (const AlgorithmInfo* info : registry.all()) {
        text += algorithm_text(*info);
    }
    if (const auto extras = registry.opt_in(); !extras.empty()) {
        text +=
            "Lanes one adds: RateLab's own, limiting something other than rate. Never a "
            "default lane.\n\n";
        for (const AlgorithmInfo* info : extras) {
            text += algorithm_text(*info);
        }
    }
    if (const auto presets = registry.presets(); !presets.empty()) {
        text +=
            "Library presets: lanes that decide as a rate limiting library does, with its own\n"
            "parameters in its own units (converted with the trace's tick_ms). Never a default "
            "lane.\n\n";
        for (const AlgorithmInfo* info : presets) {
            text += algorithm_text(*info);
        }
    }
    text +=
        "A lane is written ID[:NAME=VALUE,...], e.g. --lane "
        "token_bucket:capacity=8,refill_rate=1/2\n";
    write_output(args, text, io);
    return kExitOk;
}

}  // namespace

Command make_algorithms_command() {
    return {"algorithms",
            "list the algorithms and library presets, and the parameters each one declares",
            "algorithms [--json]",
            "Every registered algorithm with its parameters: name, kind (whole, rational, flag\n"
            "or choice), unit, default rule in terms of L and W, bounds and a description.\n"
            "These are the names a lane (--lane ID:NAME=VALUE) and a trace file's \"algorithms\"\n"
            "and \"lanes\" take. Library presets follow, each with the library and version it\n"
            "reproduces (in the JSON, under \"presets\").",
            {{"json", "", "print JSON instead of text"}, output_option("the list")},
            0,
            0,
            false,
            run_algorithms};
}

}  // namespace ratelab::cli
