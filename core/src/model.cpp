#include "ratelab/model.h"

#include <algorithm>

#include "ratelab/limits.h"

namespace ratelab {

std::optional<KeyId> Trace::find_key(std::string_view key) const {
    const auto it = std::find(keys.begin(), keys.end(), key);
    if (it == keys.end())
        return std::nullopt;
    return static_cast<KeyId>(it - keys.begin());
}

bool Trace::is_well_formed() const {
    return validate(*this).empty();
}

TraceBuilder::TraceBuilder() {
    ids_.emplace(std::string(), 0);
}

KeyId TraceBuilder::intern(std::string_view key) {
    // Heterogeneous lookup needs C++20's transparent unordered_map, which g++ 12 supports
    // only with a custom hash; a short-lived string is cheap next to parsing the request.
    auto [it, inserted] =
        ids_.try_emplace(std::string(key), static_cast<KeyId>(trace_.keys.size()));
    if (inserted)
        trace_.keys.emplace_back(key);
    return it->second;
}

void TraceBuilder::add(Tick tick, std::uint32_t cost, std::string_view key) {
    trace_.requests.push_back(Request{tick, cost, intern(key)});
}

Trace TraceBuilder::take() && {
    ids_.clear();
    return std::move(trace_);
}

const Limits& Params::for_key(std::string_view key) const {
    if (keys.empty())
        return base;
    const auto it = keys.find(key);
    return it == keys.end() ? base : it->second;
}

namespace {

void check_range(std::vector<std::string>& errors, const std::string& where, const char* what,
                 std::int64_t value, std::int64_t max) {
    if (value < 1 || value > max) {
        errors.push_back(where + std::string(what) + " must be between 1 and " +
                         std::to_string(max) + ", got " + std::to_string(value));
    }
}

void check_rational(std::vector<std::string>& errors, const std::string& where, const char* what,
                    const std::optional<Rational>& value) {
    if (!value)
        return;
    if (value->num() < 1 || value->num() > bounds::kMaxRationalPart ||
        value->den() > bounds::kMaxRationalDen) {
        errors.push_back(where + std::string(what) +
                         " must be a positive fraction with numerator <= " +
                         std::to_string(bounds::kMaxRationalPart) + " and denominator <= " +
                         std::to_string(bounds::kMaxRationalDen) + ", got " + value->to_string());
    }
}

void validate_limits(std::vector<std::string>& errors, const std::string& where,
                     const Limits& limits) {
    check_range(errors, where, "limit", limits.limit, bounds::kMaxLimit);
    check_range(errors, where, "window", limits.window, bounds::kMaxWindow);
    const Overrides& o = limits.overrides;
    if (o.bucket_capacity)
        check_range(errors, where, "capacity", *o.bucket_capacity, bounds::kMaxLimit);
    if (o.queue_size)
        check_range(errors, where, "queue_size", *o.queue_size, bounds::kMaxLimit);
    if (o.gcra_burst)
        check_range(errors, where, "burst", *o.gcra_burst, bounds::kMaxLimit);
    check_rational(errors, where, "refill_rate", o.refill_rate);
    check_rational(errors, where, "drain_interval", o.drain_interval);
    check_rational(errors, where, "emission_interval", o.emission_interval);
}

}  // namespace

std::vector<std::string> validate(const Params& params) {
    std::vector<std::string> errors;
    validate_limits(errors, "", params.base);
    for (const auto& [key, limits] : params.keys) {
        validate_limits(errors, "key \"" + key + "\": ", limits);
    }
    return errors;
}

std::vector<std::string> validate(const Trace& trace) {
    std::vector<std::string> errors;
    auto fail = [&](std::size_t index, const std::string& message) {
        errors.push_back("request " + std::to_string(index) + ": " + message);
    };
    if (trace.keys.empty() || !trace.keys.front().empty()) {
        errors.emplace_back("the key table must start with the default key \"\"");
    }
    if (trace.requests.size() > bounds::kMaxRequests) {
        errors.push_back("more than " + std::to_string(bounds::kMaxRequests) + " requests");
    }
    // The app validates a whole trace after every edit: a branch-free pass finds a good trace
    // fast, and only a bad one is walked again for its messages.
    bool good = true;
    Tick last = 0;
    for (const Request& r : trace.requests) {
        // In order and starting at 0 or later, every tick is at least 0.
        good &= (r.tick >= last) & (r.tick <= bounds::kMaxTick) & (r.cost >= 1) &
                (r.cost <= bounds::kMaxCost) & (r.key < trace.keys.size());
        last = r.tick;
    }
    if (good) {
        return errors;
    }
    Tick previous = 0;
    for (std::size_t i = 0; i < trace.requests.size() && errors.size() < 20; ++i) {
        const Request& r = trace.requests[i];
        if (r.tick < 0 || r.tick > bounds::kMaxTick) {
            fail(i, "tick " + std::to_string(r.tick) + " outside [0, " +
                        std::to_string(bounds::kMaxTick) + "]");
        } else if (r.tick < previous) {
            fail(i, "tick " + std::to_string(r.tick) + " is before the previous request's tick " +
                        std::to_string(previous));
        }
        previous = std::max(previous, r.tick);
        if (r.cost < 1 || r.cost > bounds::kMaxCost) {
            fail(i, "cost " + std::to_string(r.cost) + " outside [1, " +
                        std::to_string(bounds::kMaxCost) + "]");
        }
        if (r.key >= trace.keys.size())
            fail(i, "unknown key id " + std::to_string(r.key));
    }
    return errors;
}

}  // namespace ratelab
