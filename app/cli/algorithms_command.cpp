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

int run_algorithms(const Arguments& args, CommandIo& io) {
    if (args.has("json")) {
        Json list = Json::array();
        for (const AlgorithmInfo* info : Registry::instance().all()) {
            Json parameters = Json::array();
            for (const ParameterInfo& parameter : info->parameters) {
                parameters.push_back(parameter_json(parameter));
            }
            list.push_back({{"id", info->id},
                            {"name", info->name},
                            {"summary", info->summary},
                            {"releases", info->releases},
                            {"parameters", std::move(parameters)}});
        }
        write_output(args, Json{{"algorithms", std::move(list)}}.dump(2) + "\n", io);
        return kExitOk;
    }
    std::string text;
    for (const AlgorithmInfo* info : Registry::instance().all()) {
        text += info->id + "  (" + info->name + ")\n  " + info->summary + "\n";
        if (info->parameters.empty()) {
            text += "  no parameters of its own: it reads L and W\n";
        }
        for (const ParameterInfo& parameter : info->parameters) {
            const std::string_view unit = unit_name(parameter.unit);
            text += "  " + parameter.id + " (" + std::string(kind_name(parameter.kind)) +
                    (unit.empty() ? "" : ", " + std::string(unit)) + ", default " +
                    parameter.default_rule.text + ", " + bounds_text(parameter) +
                    "): " + parameter.description + "\n";
        }
        text += "\n";
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
            "list the algorithms and the parameters each one declares",
            "algorithms [--json]",
            "Every registered algorithm with its parameters: name, kind (whole, rational, flag\n"
            "or choice), unit, default rule in terms of L and W, bounds and a description.\n"
            "These are the names a lane (--lane ID:NAME=VALUE) and a trace file's \"algorithms\"\n"
            "and \"lanes\" take.",
            {{"json", "", "print JSON instead of text"}, output_option("the list")},
            0,
            0,
            false,
            run_algorithms};
}

}  // namespace ratelab::cli
