#include "ratelab/parameters.h"

#include <algorithm>
#include <charconv>

#include "ratelab/limits.h"

namespace ratelab {

namespace default_rules {

DefaultRule limit() {
    return {"L", [](const ParamContext& c) { return ParamValue(Rational(c.limit)); }};
}

DefaultRule limit_per_window() {
    return {"L/W", [](const ParamContext& c) { return ParamValue(Rational(c.limit, c.window)); }};
}

DefaultRule window_per_limit() {
    return {"W/L", [](const ParamContext& c) { return ParamValue(Rational(c.window, c.limit)); }};
}

DefaultRule fixed(ParamValue v) {
    std::string text = to_text(v);
    return {std::move(text), [v = std::move(v)](const ParamContext&) { return v; }};
}

namespace {

/// W * tick_ms / unit_ms, whole, kept within a whole parameter's bounds (1 to kMaxLimit).
std::int64_t window_in(const ParamContext& c, std::int64_t unit_ms) {
    const Int128 value = static_cast<Int128>(c.window) * c.tick_ms / unit_ms;
    return static_cast<std::int64_t>(std::clamp<Int128>(value, 1, bounds::kMaxLimit));
}

}  // namespace

DefaultRule window_seconds() {
    return {"W s", [](const ParamContext& c) { return ParamValue(Rational(window_in(c, 1000))); }};
}

DefaultRule window_milliseconds() {
    return {"W ms", [](const ParamContext& c) { return ParamValue(Rational(window_in(c, 1))); }};
}

DefaultRule limit_per_second() {
    // L per W ticks is L * 1000 / (W * tick_ms) per second; over a long window the denominator
    // is held to the rational bounds (the rate rounds down to a whole number per second then).
    return {"L/W per s", [](const ParamContext& c) {
                const Int128 den = static_cast<Int128>(c.window) * c.tick_ms;
                if (den <= bounds::kMaxRationalDen) {
                    return ParamValue(Rational(c.limit * 1000, static_cast<std::int64_t>(den)));
                }
                const Int128 whole = static_cast<Int128>(c.limit) * 1000 / den;
                return ParamValue(Rational(static_cast<std::int64_t>(std::max<Int128>(1, whole))));
            }};
}

}  // namespace default_rules

ParameterInfo whole_parameter(std::string id, std::string name, ParamUnit unit, DefaultRule rule,
                              std::string description) {
    ParameterInfo info;
    info.id = std::move(id);
    info.name = std::move(name);
    info.kind = ParamKind::whole;
    info.unit = unit;
    info.default_rule = std::move(rule);
    info.min = Rational(1);
    info.max = Rational(bounds::kMaxLimit);
    info.description = std::move(description);
    return info;
}

ParameterInfo rational_parameter(std::string id, std::string name, ParamUnit unit, DefaultRule rule,
                                 std::string description) {
    ParameterInfo info = whole_parameter(std::move(id), std::move(name), unit, std::move(rule),
                                         std::move(description));
    info.kind = ParamKind::rational;
    info.min = Rational(1, bounds::kMaxRationalDen);
    info.max = Rational(bounds::kMaxRationalPart);
    return info;
}

std::string_view unit_name(ParamUnit unit) {
    switch (unit) {
        case ParamUnit::none:
            return "";
        case ParamUnit::tokens:
            return "tokens";
        case ParamUnit::cost_units:
            return "cost units";
        case ParamUnit::ticks:
            return "ticks";
        case ParamUnit::ticks_per_unit:
            return "ticks per unit";
        case ParamUnit::per_tick:
            return "per tick";
        case ParamUnit::seconds:
            return "seconds";
        case ParamUnit::milliseconds:
            return "milliseconds";
        case ParamUnit::per_second:
            return "per second";
        case ParamUnit::http_status:
            return "HTTP status";
        case ParamUnit::requests:
            return "requests";
    }
    return "";
}

std::string_view kind_name(ParamKind kind) {
    switch (kind) {
        case ParamKind::whole:
            return "whole";
        case ParamKind::rational:
            return "rational";
        case ParamKind::flag:
            return "flag";
        case ParamKind::choice:
            return "choice";
    }
    return "";
}

std::string to_text(const ParamValue& value) {
    if (const auto* number = std::get_if<Rational>(&value)) {
        return number->to_string();
    }
    if (const auto* flag = std::get_if<bool>(&value)) {
        return *flag ? "yes" : "no";
    }
    return std::get<std::string>(value);
}

namespace {

std::string join_choices(const std::vector<std::string>& choices) {
    std::string text;
    for (std::size_t i = 0; i < choices.size(); ++i) {
        text += (i == 0 ? "" : i + 1 == choices.size() ? " or " : ", ") + choices[i];
    }
    return text;
}

std::optional<std::string> check_number(const ParameterInfo& info, const Rational& number) {
    const bool whole = info.kind == ParamKind::whole;
    if (whole && !number.is_integer()) {
        return info.id + " must be a whole number, not " + number.to_string();
    }
    if (number < info.min || number > info.max || number.num() > bounds::kMaxRationalPart ||
        number.den() > bounds::kMaxRationalDen) {
        if (whole) {
            return info.id + " must be between " + info.min.to_string() + " and " +
                   info.max.to_string() + ", not " + number.to_string();
        }
        return info.id + " must be a fraction between " + info.min.to_string() + " and " +
               info.max.to_string() + " with a denominator of at most " +
               std::to_string(bounds::kMaxRationalDen) + ", not " + number.to_string();
    }
    return std::nullopt;
}

/// "0.4" -> 2/5 exactly, or nothing if `text` is not a plain decimal.
std::optional<Rational> exact_decimal(std::string_view text) {
    const std::size_t point = text.find('.');
    if (point == std::string_view::npos || text.size() - point - 1 > 6) {
        return std::nullopt;
    }
    std::string digits(text.substr(0, point));
    digits += text.substr(point + 1);
    std::int64_t scaled = 0;
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), scaled);
    if (digits.empty() || error != std::errc() || end != digits.data() + digits.size() ||
        scaled < 0) {
        return std::nullopt;
    }
    std::int64_t scale = 1;
    for (std::size_t i = point + 1; i < text.size(); ++i) {
        scale *= 10;
    }
    return Rational(scaled, scale);
}

}  // namespace

std::optional<std::string> check_value(const ParameterInfo& info, const ParamValue& value) {
    switch (info.kind) {
        case ParamKind::whole:
        case ParamKind::rational:
            if (const auto* number = std::get_if<Rational>(&value)) {
                return check_number(info, *number);
            }
            return info.id + " must be a " +
                   (info.kind == ParamKind::whole ? "whole number" : "number or a fraction") +
                   ", not " + to_text(value);
        case ParamKind::flag:
            if (std::holds_alternative<bool>(value)) {
                return std::nullopt;
            }
            return info.id + " must be yes or no, not " + to_text(value);
        case ParamKind::choice: {
            const auto* name = std::get_if<std::string>(&value);
            if (name != nullptr &&
                std::find(info.choices.begin(), info.choices.end(), *name) != info.choices.end()) {
                return std::nullopt;
            }
            return info.id + " must be " + join_choices(info.choices) + ", not " + to_text(value);
        }
    }
    return std::nullopt;
}

std::variant<ParamValue, std::string> parse_value(const ParameterInfo& info,
                                                  std::string_view text) {
    const std::string shown(text);
    switch (info.kind) {
        case ParamKind::whole:
        case ParamKind::rational: {
            if (const auto number = Rational::parse(text)) {
                if (auto problem = check_value(info, *number)) {
                    return *problem;
                }
                return ParamValue(*number);
            }
            if (const auto decimal = exact_decimal(text)) {
                if (info.kind == ParamKind::whole) {
                    return info.id + " must be a whole number, not " + shown;
                }
                return shown + " is a decimal: write " + decimal->to_string() +
                       " (fractions keep RateLab exact)";
            }
            return info.id + " must be " +
                   (info.kind == ParamKind::whole ? std::string("a whole number")
                                                  : std::string("a whole number or a fraction "
                                                                "such as 5/2")) +
                   ", not \"" + shown + "\"";
        }
        case ParamKind::flag:
            if (text == "yes" || text == "true" || text == "1") {
                return ParamValue(true);
            }
            if (text == "no" || text == "false" || text == "0") {
                return ParamValue(false);
            }
            return info.id + " must be yes or no, not \"" + shown + "\"";
        case ParamKind::choice:
            if (auto problem = check_value(info, ParamValue(shown))) {
                return *problem;
            }
            return ParamValue(shown);
    }
    return std::string("unknown kind");
}

const ParameterInfo* find_parameter(const std::vector<ParameterInfo>& declared,
                                    std::string_view id) {
    const auto it = std::find_if(declared.begin(), declared.end(),
                                 [id](const ParameterInfo& info) { return info.id == id; });
    return it == declared.end() ? nullptr : &*it;
}

}  // namespace ratelab
