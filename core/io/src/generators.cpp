// The table of traffic patterns and the reading of their parameters.
#include <charconv>

#include "pattern_args.h"
#include "patterns.h"
#include "ratelab/limits.h"

namespace ratelab::io {

namespace {

using detail::PatternArgs;
using detail::SeededRandom;
using Make = TraceDocument (*)(const PatternArgs&, SeededRandom&);

struct Pattern {
    PatternInfo info;
    Make make;
};

PatternInfo with_limits(PatternInfo info) {
    info.parameters.insert(info.parameters.begin(), {{"limit", "4", "L, the allowance per window"},
                                                     {"window", "10", "W, the window in ticks"}});
    return info;
}

const std::vector<Pattern>& table() {
    static const std::vector<Pattern> patterns = {
        {with_limits({"boundary-burst",
                      "requests packed just before and just after a window boundary",
                      {{"boundary", "10", "the tick where a window starts"},
                       {"before", "4", "requests on the ticks just before the boundary"},
                       {"after", "4", "requests on the ticks from the boundary on"}}}),
         detail::make_boundary_burst},
        {with_limits({"steady",
                      "evenly spaced requests (under the limit by default; raise per_window "
                      "above L to go over)",
                      {{"per_window", "3", "requests per W ticks"},
                       {"duration", "60", "ticks to fill"},
                       {"start", "0", "tick of the first request"}}}),
         detail::make_steady},
        {with_limits({"on-off",
                      "bursts of back-to-back traffic separated by quiet periods",
                      {{"on", "5", "ticks of each burst"},
                       {"off", "15", "quiet ticks after each burst"},
                       {"per_tick", "1", "requests on each tick of a burst"},
                       {"cycles", "3", "number of bursts"}}}),
         detail::make_on_off},
        {with_limits({"idle-burst",
                      "a long silence, then a burst",
                      {{"idle", "40", "tick of the burst's first request"},
                       {"burst", "8", "requests in the burst"},
                       {"spread", "1", "ticks the burst is spread over"}}}),
         detail::make_idle_burst},
        {with_limits({"poisson",
                      "random arrivals at a given average rate (a Poisson process)",
                      {{"rate", "1/2", "average requests per tick, e.g. 0.5 or 2/5"},
                       {"duration", "100", "ticks to fill"}}}),
         detail::make_poisson},
        {with_limits({"ramp",
                      "a rate that grows steadily from one value to another",
                      {{"from", "0", "requests per tick at the start"},
                       {"to", "1", "requests per tick at the end"},
                       {"duration", "100", "ticks to fill"}}}),
         detail::make_ramp},
        {with_limits({"weighted-costs",
                      "random arrivals whose costs follow a weighted mix",
                      {{"rate", "1/2", "average requests per tick"},
                       {"costs", "1:6,3:3,8:1", "cost:weight pairs"},
                       {"duration", "100", "ticks to fill"}}}),
         detail::make_weighted_costs},
        {with_limits({"zipf-keys",
                      "many clients, a few of them far busier than the rest (Zipf-like)",
                      {{"keys", "20", "number of clients"},
                       {"skew", "1", "Zipf exponent: 0 is uniform, larger is more skewed"},
                       {"rate", "2", "average requests per tick, all clients together"},
                       {"duration", "100", "ticks to fill"}}}),
         detail::make_zipf_keys},
    };
    return patterns;
}

}  // namespace

namespace detail {

PatternArgs::PatternArgs(const PatternInfo& info, const std::map<std::string, std::string>& values)
    : pattern_(info.id) {
    for (const PatternParameter& parameter : info.parameters) {
        values_[parameter.name] = parameter.default_value;
    }
    for (const auto& [name, value] : values) {
        if (!values_.count(name)) {
            std::string known;
            for (const PatternParameter& parameter : info.parameters) {
                known += (known.empty() ? "" : ", ") + parameter.name;
            }
            throw GeneratorError("pattern " + pattern_ + " has no parameter \"" + name +
                                 "\" (it takes " + known + ")");
        }
        values_[name] = value;
    }
}

const std::string& PatternArgs::text(const std::string& name) const {
    return values_.at(name);
}

std::int64_t PatternArgs::integer(const std::string& name, std::int64_t min,
                                  std::int64_t max) const {
    const std::string& value = text(name);
    std::int64_t number = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), number);
    if (value.empty() || error != std::errc() || end != value.data() + value.size() ||
        number < min || number > max) {
        throw GeneratorError(pattern_ + ": " + name + " must be a whole number from " +
                             std::to_string(min) + " to " + std::to_string(max) + ", not \"" +
                             value + "\"");
    }
    return number;
}

Rational PatternArgs::rational(const std::string& name, const Rational& min,
                               const Rational& max) const {
    const auto value = parse_decimal_or_fraction(text(name));
    if (!value || *value < min || *value > max) {
        throw GeneratorError(pattern_ + ": " + name + " must be a number from " + min.to_short(6) +
                             " to " + max.to_short(6) + " (like 0.5 or 1/2), not \"" + text(name) +
                             "\"");
    }
    return *value;
}

std::optional<Rational> parse_decimal_or_fraction(const std::string& text) {
    const std::size_t dot = text.find('.');
    if (dot == std::string::npos) {
        auto value = Rational::parse(text);
        return value && text.find('/') != std::string::npos &&
                       value->den() > bounds::kMaxRationalDen
                   ? std::nullopt
                   : value;
    }
    const std::string whole = text.substr(0, dot);
    const std::string fraction = text.substr(dot + 1);
    if (fraction.empty() || fraction.size() > 6 || whole.size() > 12 ||
        fraction.find_first_not_of("0123456789") != std::string::npos ||
        whole.find_first_not_of("0123456789") != std::string::npos) {
        return std::nullopt;
    }
    std::int64_t scale = 1;
    for (std::size_t i = 0; i < fraction.size(); ++i) {
        scale *= 10;
    }
    const std::int64_t whole_part = whole.empty() ? 0 : std::stoll(whole);
    return Rational(whole_part * scale + std::stoll(fraction), scale);
}

}  // namespace detail

const std::vector<PatternInfo>& patterns() {
    static const std::vector<PatternInfo> infos = [] {
        std::vector<PatternInfo> out;
        for (const Pattern& pattern : table()) {
            out.push_back(pattern.info);
        }
        return out;
    }();
    return infos;
}

TraceDocument generate_pattern(std::string_view id,
                               const std::map<std::string, std::string>& values,
                               std::uint64_t seed) {
    for (const Pattern& pattern : table()) {
        if (pattern.info.id == id) {
            const PatternArgs args(pattern.info, values);
            SeededRandom random(seed);
            TraceDocument doc = pattern.make(args, random);
            doc.params.base.limit = args.integer("limit", 1, bounds::kMaxLimit);
            doc.params.base.window = args.integer("window", 1, bounds::kMaxWindow);
            return doc;
        }
    }
    std::string known;
    for (const Pattern& pattern : table()) {
        known += (known.empty() ? "" : ", ") + pattern.info.id;
    }
    throw GeneratorError("unknown pattern \"" + std::string(id) + "\" (known: " + known + ")");
}

}  // namespace ratelab::io
