// The pattern generators: defaults, exact placement, determinism and parameter errors.
#include "ratelab/io/generators.h"
#include "catch.h"
#include "ratelab/simulation.h"

using namespace ratelab;
using namespace ratelab::io;

namespace {

std::vector<Tick> ticks_of(const Trace& trace) {
    std::vector<Tick> ticks;
    for (const Request& request : trace.requests) {
        ticks.push_back(request.tick);
    }
    return ticks;
}

}  // namespace

TEST_CASE("io/generators: the boundary burst's defaults are the default scenario") {
    const TraceDocument doc = generate_pattern("boundary-burst", {});
    CHECK(doc.trace == default_trace());
    CHECK(doc.params.base.limit == default_params().base.limit);
    CHECK(doc.params.base.window == default_params().base.window);
}

TEST_CASE("io/generators: deterministic patterns place requests exactly") {
    CHECK(ticks_of(generate_pattern("steady", {{"per_window", "4"}, {"duration", "20"}}).trace) ==
          std::vector<Tick>{0, 2, 5, 7, 10, 12, 15, 17});
    CHECK(ticks_of(generate_pattern("on-off",
                                    {{"on", "2"}, {"off", "3"}, {"cycles", "2"}, {"per_tick", "2"}})
                       .trace) == std::vector<Tick>{0, 0, 1, 1, 5, 5, 6, 6});
    CHECK(ticks_of(generate_pattern("idle-burst", {{"idle", "30"}, {"burst", "4"}, {"spread", "2"}})
                       .trace) == std::vector<Tick>{30, 30, 31, 31});
    // A constant ramp of 1/2 per tick puts a request on every second tick.
    CHECK(ticks_of(generate_pattern("ramp", {{"from", "0.5"}, {"to", "1/2"}, {"duration", "6"}})
                       .trace) == std::vector<Tick>{1, 3, 5});
}

TEST_CASE("io/generators: the same seed gives the same trace, another seed another") {
    for (const PatternInfo& pattern : patterns()) {
        INFO(pattern.id);
        const TraceDocument a = generate_pattern(pattern.id, {}, 7);
        CHECK(a == generate_pattern(pattern.id, {}, 7));
        CHECK_FALSE(a.trace.requests.empty());
        CHECK(a.trace.is_well_formed());
        CHECK(validate(a.trace).empty());
        CHECK_FALSE(a.description.empty());
    }
    CHECK(generate_pattern("poisson", {}, 1).trace != generate_pattern("poisson", {}, 2).trace);
}

TEST_CASE("io/generators: random patterns follow their parameters on average") {
    const auto poisson = generate_pattern("poisson", {{"rate", "2"}, {"duration", "5000"}}, 3);
    const double per_tick = static_cast<double>(poisson.trace.requests.size()) / 5000.0;
    CHECK(per_tick > 1.9);
    CHECK(per_tick < 2.1);

    const auto costs = generate_pattern("weighted-costs", {{"costs", "1:1,9:1"}}, 3);
    for (const Request& request : costs.trace.requests) {
        CHECK((request.cost == 1 || request.cost == 9));
    }

    const auto zipf = generate_pattern("zipf-keys", {{"keys", "10"}, {"duration", "2000"}}, 5);
    std::vector<std::size_t> per_key(zipf.trace.keys.size());
    for (const Request& request : zipf.trace.requests) {
        ++per_key[request.key];
    }
    const auto count = [&](const char* name) { return per_key[*zipf.trace.find_key(name)]; };
    CHECK(count("client-01") > 2 * count("client-05"));  // weights 1 and 1/5
}

TEST_CASE("io/generators: bad patterns and parameters are named") {
    const auto message = [](auto&& action) {
        try {
            action();
        } catch (const GeneratorError& error) {
            return std::string(error.what());
        }
        return std::string("no error");
    };
    CHECK(message([] { generate_pattern("sawtooth", {}); }).find("unknown pattern \"sawtooth\"") !=
          std::string::npos);
    CHECK(message([] {
              generate_pattern("poisson", {{"speed", "2"}});
          }).find("no parameter \"speed\"") != std::string::npos);
    CHECK(message([] {
              generate_pattern("poisson", {{"rate", "fast"}});
          }).find("rate must be") != std::string::npos);
    CHECK(message([] {
              generate_pattern("steady", {{"limit", "0"}});
          }).find("limit must be") != std::string::npos);
    CHECK(message([] {
              generate_pattern("weighted-costs", {{"costs", "1:2,x"}});
          }).find("cost:weight") != std::string::npos);
    CHECK(message([] {
              generate_pattern("on-off", {{"per_tick", "1000"}, {"on", "100000"}, {"cycles", "1"}});
          }).find("more than") != std::string::npos);
}
