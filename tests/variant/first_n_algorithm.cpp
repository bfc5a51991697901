// A test-only algorithm, registered from this file alone: each key may spend its first
// `allowance` cost units, ever; after that everything is refused. It has a parameter of its own
// and a yes/no one, and the tests beside it check that it reaches the command line, the trace
// file, the report and the app's Advanced panel with no other file knowing about it.
#include <string>

#include "basic_algorithm.h"

namespace ratelab {
namespace {

struct FirstN {
    static constexpr std::string_view kId = "first_n";
    static constexpr bool kShapes = false;

    struct Config {
        std::int64_t allowance;
        bool by_cost;
    };
    struct State {
        std::int64_t used = 0;
        friend bool operator==(const State&, const State&) = default;
    };

    static std::vector<ParameterInfo> parameters() {
        ParameterInfo by_cost;
        by_cost.id = "by_cost";
        by_cost.name = "By cost";
        by_cost.kind = ParamKind::flag;
        by_cost.default_rule = default_rules::fixed(true);
        by_cost.description = "spend a request's cost rather than one per request";
        return {whole_parameter("allowance", "Allowance", ParamUnit::cost_units,
                                default_rules::limit(), "cost units a key may ever spend"),
                by_cost};
    }
    static Config configure(const Limits& limits) {
        const detail::ParamReader<FirstN> read(limits);
        return Config{read.whole("allowance"), read.flag("by_cost")};
    }
    static State initial(const Config&) { return State{}; }

    static std::int64_t spent(const Config& c, std::int64_t cost) { return c.by_cost ? cost : 1; }

    static bool decide(const Config& c, State& s, Tick, std::int64_t cost, bool) {
        const bool fits = s.used + spent(c, cost) <= c.allowance;
        s.used += fits ? spent(c, cost) : 0;
        return fits;
    }
    static std::optional<Rational> retry_after(const Config&, const State&, Tick, std::int64_t) {
        return std::nullopt;  // what is spent never comes back
    }
    static LimiterState describe(const Config& c, const State& s, Tick) {
        return LimiterState{
            {{"used", Rational(s.used)}, {"allowance", Rational(c.allowance)}},
            "spent " + std::to_string(s.used) + " of " + std::to_string(c.allowance)};
    }
    static std::string check(const Config& c, const State& s, Tick, std::int64_t cost) {
        const std::int64_t after = s.used + spent(c, cost);
        return "spent " + std::to_string(s.used) + " + " + std::to_string(spent(c, cost)) + " = " +
               std::to_string(after) + (after <= c.allowance ? " <= " : " > ") +
               std::to_string(c.allowance);
    }
};

[[maybe_unused]] const bool kRegistered = [] {
    Registry::instance().add(detail::make_info<FirstN>(
        "First n", "Accepts each key's first n cost units and nothing after them.", 1000));
    return true;
}();

}  // namespace
}  // namespace ratelab
