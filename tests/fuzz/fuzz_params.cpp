#include "fuzz_params.h"

#include <algorithm>

#include "ratelab/limits.h"
#include "ratelab/registry.h"

namespace ratelab::fuzz {

std::int64_t consume_bounded(FuzzedDataProvider& data, std::int64_t max) {
    switch (data.ConsumeIntegralInRange<int>(0, 3)) {
        case 0:
            return data.ConsumeIntegralInRange<std::int64_t>(1, std::min<std::int64_t>(max, 8));
        case 1:
            return data.ConsumeIntegralInRange<std::int64_t>(1, std::min<std::int64_t>(max, 1000));
        case 2:  // at the bound or just below it
            return max - data.ConsumeIntegralInRange<std::int64_t>(
                             0, std::min<std::int64_t>(max - 1, 16));
        default:
            return data.ConsumeIntegralInRange<std::int64_t>(1, max);
    }
}

Rational consume_rational(FuzzedDataProvider& data) {
    const std::int64_t num = consume_bounded(data, bounds::kMaxRationalPart);
    const std::int64_t den = consume_bounded(data, bounds::kMaxRationalDen);
    return Rational(num, den);
}

Limits consume_limits(FuzzedDataProvider& data) {
    Limits limits;
    limits.limit = consume_bounded(data, bounds::kMaxLimit);
    limits.window = consume_bounded(data, bounds::kMaxWindow);
    const auto flags = data.ConsumeIntegral<std::uint8_t>();
    // Every parameter any algorithm declares, each present or not, within its declared bounds.
    int bit = 0;
    for (const AlgorithmInfo* algorithm : Registry::instance().all()) {
        for (const ParameterInfo& parameter : algorithm->parameters) {
            if ((flags >> (bit++ % 6) & 1) == 0)
                continue;
            ParamValue value;
            switch (parameter.kind) {
                case ParamKind::whole:
                    value = Rational(consume_bounded(data, parameter.max.num()));
                    break;
                case ParamKind::rational:
                    value = consume_rational(data);
                    break;
                case ParamKind::flag:
                    value = data.ConsumeBool();
                    break;
                case ParamKind::choice:
                    value = parameter.choices[data.ConsumeIntegralInRange<std::size_t>(
                        0, parameter.choices.size() - 1)];
                    break;
            }
            limits.set_override(algorithm->id, parameter.id, std::move(value));
        }
    }
    // GCRA set up as the token bucket's mirror image: burst = capacity, interval = 1 / rate.
    const auto capacity = limits.override_of("token_bucket", "capacity");
    const auto rate = limits.override_of("token_bucket", "refill_rate");
    if ((flags & 0x40) && capacity && rate &&
        std::get<Rational>(*rate).num() <= bounds::kMaxRationalDen) {
        const Rational r = std::get<Rational>(*rate);
        limits.set_override("gcra", "burst", *capacity);
        limits.set_override("gcra", "emission_interval", Rational(r.den(), r.num()));
    }
    return limits;
}

Params consume_params(FuzzedDataProvider& data, const std::vector<std::string>& names) {
    Params params;
    params.base = consume_limits(data);
    params.rejections_count = data.ConsumeBool();
    const auto tiers = data.ConsumeIntegral<std::uint8_t>();
    for (std::size_t k = 0; k < names.size() && k < 8; ++k) {
        // The default key "" takes the top-level limits; a file cannot give it a tier.
        if ((tiers & (1u << k)) && !names[k].empty())
            params.keys[names[k]] = consume_limits(data);
    }
    return params;
}

Trace consume_trace(FuzzedDataProvider& data, std::size_t max_requests, Tick window,
                    const std::vector<std::string>& names) {
    TraceBuilder builder;
    const auto key_count = data.ConsumeIntegralInRange<std::size_t>(1, names.size());
    Tick tick = 0;
    switch (data.ConsumeIntegralInRange<int>(0, 2)) {
        case 0:
            tick = data.ConsumeIntegralInRange<Tick>(0, 20);
            break;
        case 1:  // the last ticks a trace may use
            tick = bounds::kMaxTick - data.ConsumeIntegralInRange<Tick>(0, 1000);
            break;
        default:
            tick = data.ConsumeIntegralInRange<Tick>(0, bounds::kMaxTick);
    }
    std::int64_t budget = kMaxFuzzTotalCost;
    while (data.remaining_bytes() > 0 && builder.size() < max_requests && budget > 0) {
        Tick gap = 0;
        switch (data.ConsumeIntegralInRange<int>(0, 7)) {
            case 0:
            case 1:
            case 2:
                break;
            case 3:
            case 4:
                gap = data.ConsumeIntegralInRange<Tick>(1, 3);
                break;
            case 5:
                gap = data.ConsumeIntegralInRange<Tick>(1, window);
                break;
            case 6:  // around a window boundary
                gap = window + data.ConsumeIntegralInRange<Tick>(-1, 1);
                break;
            default:
                gap = data.ConsumeIntegralInRange<Tick>(0, bounds::kMaxTick);
        }
        tick = std::min(bounds::kMaxTick, tick + std::max<Tick>(gap, 0));
        std::int64_t cost = 1;
        switch (data.ConsumeIntegralInRange<int>(0, 3)) {
            case 2:
                cost = data.ConsumeIntegralInRange<std::int64_t>(1, 10);
                break;
            case 3:
                cost = consume_bounded(data, bounds::kMaxCost);
                break;
            default:
                break;
        }
        cost = std::min(cost, budget);
        budget -= cost;
        const auto key = data.ConsumeIntegralInRange<std::size_t>(0, key_count - 1);
        builder.add(tick, static_cast<std::uint32_t>(cost), names[key]);
    }
    return std::move(builder).take();
}

std::int64_t total_cost(const Trace& trace) {
    std::int64_t total = 0;
    for (const Request& r : trace.requests)
        total += r.cost;
    return total;
}

}  // namespace ratelab::fuzz
