// Seeded random patterns. They draw only from SeededRandom and use no standard-library
// distribution (whose algorithms differ between implementations), so a seed means the same
// trace everywhere.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "patterns.h"
#include "ratelab/tick_text.h"

namespace ratelab::io::detail {

namespace {

/// How many arrivals one tick gets at an average of `rate` (Knuth's multiplication method).
std::int64_t poisson_count(SeededRandom& random, double threshold) {
    std::int64_t count = 0;
    for (double product = random.unit(); product > threshold; product *= random.unit()) {
        ++count;
    }
    return count;
}

double arrival_threshold(const PatternArgs& args) {
    // Above ~50 per tick exp(-rate) gets too small for the method to stay accurate.
    return std::exp(-args.rational("rate", Rational(1, 1000), Rational(50)).to_double());
}

struct WeightedCost {
    std::uint32_t cost;
    std::uint64_t weight;
};

std::vector<WeightedCost> parse_costs(const std::string& text) {
    std::vector<WeightedCost> mix;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(',', start), text.size());
        const std::string item = text.substr(start, end - start);
        unsigned cost = 0;
        unsigned long long weight = 0;
        char extra = 0;
        if (std::sscanf(item.c_str(), "%u:%llu%c", &cost, &weight, &extra) != 2 || cost < 1 ||
            cost > 1'000'000 || weight < 1 || weight > 1'000'000) {
            throw GeneratorError(
                "weighted-costs: costs is a list of cost:weight pairs like "
                "1:6,3:3,8:1 (costs 1 to 1000000), not \"" +
                text + "\"");
        }
        mix.push_back({cost, weight});
        start = end + 1;
    }
    return mix;
}

}  // namespace

TraceDocument make_poisson(const PatternArgs& args, SeededRandom& random) {
    const double threshold = arrival_threshold(args);
    const std::int64_t duration = args.integer("duration", 1, kMaxGeneratedTicks);
    TraceBuilder builder;
    for (Tick tick = 0; tick < duration; ++tick) {
        for (std::int64_t n = poisson_count(random, threshold); n > 0; --n) {
            add_request(builder, tick);
        }
    }
    TraceDocument doc;
    doc.name = "Poisson arrivals";
    doc.description = "Random arrivals averaging " + args.text("rate") + " per tick for " +
                      ticks_text(duration) + ".";
    doc.trace = std::move(builder).take();
    return doc;
}

TraceDocument make_weighted_costs(const PatternArgs& args, SeededRandom& random) {
    const double threshold = arrival_threshold(args);
    const std::int64_t duration = args.integer("duration", 1, kMaxGeneratedTicks);
    const std::vector<WeightedCost> mix = parse_costs(args.text("costs"));
    std::uint64_t total = 0;
    for (const WeightedCost& entry : mix) {
        total += entry.weight;
    }
    TraceBuilder builder;
    for (Tick tick = 0; tick < duration; ++tick) {
        for (std::int64_t n = poisson_count(random, threshold); n > 0; --n) {
            std::uint64_t pick = random.below(total);
            std::size_t i = 0;
            while (pick >= mix[i].weight) {
                pick -= mix[i++].weight;
            }
            add_request(builder, tick, mix[i].cost);
        }
    }
    TraceDocument doc;
    doc.name = "Weighted costs";
    doc.description = "Random arrivals averaging " + args.text("rate") +
                      " per tick, with costs drawn from " + args.text("costs") + " (cost:weight).";
    doc.trace = std::move(builder).take();
    return doc;
}

TraceDocument make_zipf_keys(const PatternArgs& args, SeededRandom& random) {
    const std::int64_t keys = args.integer("keys", 1, 100'000);
    const double skew = args.rational("skew", Rational(0), Rational(5)).to_double();
    const double threshold = arrival_threshold(args);
    const std::int64_t duration = args.integer("duration", 1, kMaxGeneratedTicks);
    // Client k (from 1) is picked with weight 1 / k^skew.
    std::vector<double> cumulative(static_cast<std::size_t>(keys));
    double sum = 0;
    for (std::int64_t k = 1; k <= keys; ++k) {
        sum += 1.0 / std::pow(static_cast<double>(k), skew);
        cumulative[static_cast<std::size_t>(k - 1)] = sum;
    }
    const int digits = static_cast<int>(std::to_string(keys).size());
    std::vector<std::string> names;
    for (std::int64_t k = 1; k <= keys; ++k) {
        char name[32];
        std::snprintf(name, sizeof name, "client-%0*lld", digits, static_cast<long long>(k));
        names.emplace_back(name);
    }
    TraceBuilder builder;
    for (Tick tick = 0; tick < duration; ++tick) {
        for (std::int64_t n = poisson_count(random, threshold); n > 0; --n) {
            const double target = random.unit() * sum;
            const auto it = std::upper_bound(cumulative.begin(), cumulative.end(), target);
            const auto index = std::min<std::size_t>(
                static_cast<std::size_t>(it - cumulative.begin()), names.size() - 1);
            add_request(builder, tick, 1, names[index]);
        }
    }
    TraceDocument doc;
    doc.name = "Many keys, skewed";
    doc.description = std::to_string(keys) + " clients sending " + args.text("rate") +
                      " requests per tick in all; client k is picked with weight 1/k^" +
                      args.text("skew") + ".";
    doc.trace = std::move(builder).take();
    return doc;
}

}  // namespace ratelab::io::detail
