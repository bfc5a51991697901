#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ratelab/rational.h"

namespace ratelab {

/// What kind of value a parameter takes.
enum class ParamKind : std::uint8_t {
    whole,     ///< a whole number, such as a capacity
    rational,  ///< an exact fraction, such as 5/2 tokens per tick
    flag,      ///< yes or no
    choice,    ///< one of a few named options
};

/// The unit a parameter is measured in, for labels and help.
enum class ParamUnit : std::uint8_t {
    none,
    tokens,
    cost_units,
    ticks,
    ticks_per_unit,  ///< ticks per cost unit, such as a drain interval
    per_tick,        ///< tokens or cost units per tick, such as a refill rate
    seconds,         ///< for a library that thinks in seconds
    milliseconds,    ///< for a library that thinks in milliseconds
    per_second,      ///< requests, events or tokens per second, as a library's rate
    http_status,     ///< an HTTP status code, such as nginx's limit_req_status
    requests,        ///< whole requests, whatever they cost: a library that counts requests
};

/// A parameter's value: whole numbers and fractions are Rationals (whole numbers with
/// denominator 1), a yes/no is a bool, a choice is the option's name.
using ParamValue = std::variant<Rational, bool, std::string>;
/// Values by parameter id, such as {"capacity": 8}.
using ParamValues = std::map<std::string, ParamValue, std::less<>>;
/// Parameter values by algorithm id, such as {"token_bucket": {"capacity": 8}}.
using AlgorithmParams = std::map<std::string, ParamValues, std::less<>>;

/// What a default is computed from: the limit L and the window W that apply to the key, and
/// how long one tick is (a library preset's parameters are in the library's own units).
struct ParamContext {
    std::int64_t limit = 4;
    std::int64_t window = 10;
    std::int64_t tick_ms = 1000;
};

/// How a parameter's default follows from L and W, in words and as a function.
struct DefaultRule {
    std::string text;  ///< e.g. "L", "L/W", "W/L", "no"
    std::function<ParamValue(const ParamContext&)> value;
};

namespace default_rules {
DefaultRule limit();                ///< L
DefaultRule limit_per_window();     ///< L/W
DefaultRule window_per_limit();     ///< W/L
DefaultRule fixed(ParamValue v);    ///< the same value whatever L and W are
DefaultRule window_seconds();       ///< W in seconds (W * tick_ms / 1000), at least 1
DefaultRule window_milliseconds();  ///< W in milliseconds (W * tick_ms)
DefaultRule limit_per_second();     ///< L per W, per second
}  // namespace default_rules

/// One parameter an algorithm declares: everything the file format, validation, the CLI, the
/// app's Advanced panel and the guide need to know about it.
struct ParameterInfo {
    std::string id;    ///< as in trace files and --lane, e.g. "capacity"
    std::string name;  ///< for display, e.g. "Capacity"
    ParamKind kind = ParamKind::whole;
    ParamUnit unit = ParamUnit::none;
    DefaultRule default_rule;
    /// Bounds of whole and rational values, both included. A rational's numerator is also at
    /// most bounds::kMaxRationalPart and its denominator at most bounds::kMaxRationalDen.
    Rational min{1};
    Rational max{1};
    std::vector<std::string> choices;  ///< choice parameters only
    std::string description;           ///< one line, e.g. "tokens the bucket holds"

    ParamValue default_for(const ParamContext& context) const {
        return default_rule.value(context);
    }
};

/// A whole-number parameter from 1 to bounds::kMaxLimit.
ParameterInfo whole_parameter(std::string id, std::string name, ParamUnit unit, DefaultRule rule,
                              std::string description);
/// A positive exact fraction within the rational bounds of ratelab/limits.h.
ParameterInfo rational_parameter(std::string id, std::string name, ParamUnit unit, DefaultRule rule,
                                 std::string description);

/// "tokens", "ticks per unit", ...; empty for none.
std::string_view unit_name(ParamUnit unit);
/// "whole", "rational", "flag", "choice".
std::string_view kind_name(ParamKind kind);

/// The value as a person writes it: "8", "5/2", "yes", "no", or the choice's name.
std::string to_text(const ParamValue& value);

/// The problem with `value` for `info` (wrong kind, out of bounds), or nothing if it is valid.
std::optional<std::string> check_value(const ParameterInfo& info, const ParamValue& value);

/// Reads a value of `info`'s kind as typed by a person ("8", "5/2", "yes"): the value, or a
/// sentence saying what is wrong and how to write it ("0.4 is a decimal: write 2/5").
std::variant<ParamValue, std::string> parse_value(const ParameterInfo& info, std::string_view text);

/// The declaration named `id` in `declared`, or nothing.
const ParameterInfo* find_parameter(const std::vector<ParameterInfo>& declared,
                                    std::string_view id);

}  // namespace ratelab
