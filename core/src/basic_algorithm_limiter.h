#pragma once
// Part of basic_algorithm.h, which includes it at its end: a policy deciding one request at a
// time (ratelab/limiter.h), for the layers that decide in an order of their own.

#include <utility>
#include <vector>

#include "basic_algorithm.h"
#include "ratelab/limiter.h"

namespace ratelab::detail {

/// Policy P's limiters, one state per key: the same steps as reference_run takes per request.
template <class P>
class PolicyLimiter final : public Limiter {
public:
    using Config = typename P::Config;
    using State = typename P::State;

    /// `configs` holds one configuration per key, or a single one for all keys.
    PolicyLimiter(std::vector<Config> configs, std::size_t keys, bool rejections_count)
        : configs_(std::move(configs)), rejections_count_(rejections_count) {
        states_.reserve(keys);
        for (std::size_t k = 0; k < keys; ++k)
            states_.push_back(P::initial(config(static_cast<KeyId>(k))));
    }

    using Limiter::decide;
    Decision decide(KeyId key, Tick now, std::int64_t cost, Tick duration) override {
        return decide_on(config(key), states_.at(key), now, cost, duration);
    }

    std::string check(KeyId key, Tick now, std::int64_t cost) const override {
        return P::check(config(key), states_.at(key), now, cost);
    }

    LimiterState state(KeyId key, Tick now) const override {
        return P::describe(config(key), states_.at(key), now);
    }

    void forget(KeyId key) override { states_.at(key) = P::initial(config(key)); }

    std::unique_ptr<Limiter> clone() const override {
        return std::make_unique<PolicyLimiter>(*this);
    }

    bool charge(KeyId key, Tick now, std::int64_t cost) override {
        if constexpr (requires(const Config& c, State& s) { P::charge(c, s, now, cost); }) {
            P::charge(config(key), states_.at(key), now, cost);
            return true;
        } else {
            return false;
        }
    }

    bool adopt(KeyId key, const Limiter& other) override {
        const auto* same = dynamic_cast<const PolicyLimiter*>(&other);
        if (same == nullptr)
            return false;
        states_.at(key) = same->states_.at(key);
        return true;
    }

    Decision peek(KeyId key, Tick now, std::int64_t cost) const override {
        State copy = states_.at(key);  // one key's state, where the default copies every key
        return decide_on(config(key), copy, now, cost, 0);
    }

private:
    Decision decide_on(const Config& c, State& state, Tick now, std::int64_t cost,
                       Tick duration) const {
        if (decide_request<P>(c, state, now, cost, duration, rejections_count_)) {
            Rational release;
            if constexpr (P::kShapes) {
                const UnitSegment units = P::released_units(c, state, cost);
                release = Rational(units.last(), units.scale);
            }
            return make_decision(AlgorithmRun::kAccepted, release, P::kShapes, now);
        }
        const auto retry = P::retry_after(c, state, now, cost);
        return make_decision(retry ? AlgorithmRun::kRejected : AlgorithmRun::kRejectedNever,
                             retry.value_or(Rational()), P::kShapes, now);
    }

    const Config& config(KeyId key) const {
        return configs_.size() == 1 ? configs_.front() : configs_.at(key);
    }

    std::vector<Config> configs_;
    std::vector<State> states_;
    bool rejections_count_;
};

template <class P>
std::unique_ptr<Limiter> BasicAlgorithm<P>::limiter(const Trace& trace,
                                                    const Params& params) const {
    return std::make_unique<PolicyLimiter<P>>(configure_keys(trace, params), trace.keys.size(),
                                              params.rejections_count);
}

}  // namespace ratelab::detail
