// The attempts of clients that retry, decided one at a time through a Limiter. A priority
// queue keeps the order (tick, intent, attempt); a paced key holds its intents in a queue of
// its own and sends the next only when what it was last told allows it.
#include <algorithm>
#include <deque>
#include <functional>
#include <queue>
#include <tuple>

#include "ratelab/clients.h"
#include "ratelab/registry.h"

namespace ratelab {
namespace {

struct Pending {
    Tick tick;
    std::size_t intent;
    std::int64_t attempt;
    friend bool operator>(const Pending& a, const Pending& b) {
        return std::tie(a.tick, a.intent, a.attempt) > std::tie(b.tick, b.intent, b.attempt);
    }
};

/// The lane's limiters. With responses, each key gets a limiter of its own (over a trace of
/// that key alone), so that probing for R and T copies one key's state, not every key's.
class LaneLimiters {
public:
    LaneLimiters(const Trace& trace, const Params& lane_params, const AlgorithmInfo& info,
                 bool per_key)
        : trace_(trace), params_(lane_params), algorithm_(info.make()) {
        if (per_key)
            own_.resize(trace.keys.size());
        else
            shared_ = algorithm_->limiter(trace, lane_params);
    }

    /// The limiter that decides `key`, and the key's id in it.
    std::pair<Limiter*, KeyId> of(KeyId key) {
        if (shared_)
            return {shared_.get(), key};
        if (!own_[key]) {
            Trace alone;
            if (key != 0)
                alone.keys.push_back(trace_.keys[key]);
            own_[key] = algorithm_->limiter(alone, params_);
        }
        return {own_[key].get(), key == 0 ? 0 : 1};
    }

private:
    const Trace& trace_;
    const Params& params_;
    std::unique_ptr<Algorithm> algorithm_;
    std::unique_ptr<Limiter> shared_;
    std::vector<std::unique_ptr<Limiter>> own_;
};

/// When a paced client sends a request of `cost` after being told `response` at `now`: at
/// once when the remaining quota holds it and the quota is full again (T = 0); spread evenly,
/// cost units per T / R ticks, while it holds it; else when the quota is back, T ticks on.
Tick paced_next(Tick now, const Response& response, std::int64_t cost) {
    if (!response.reset_ticks)
        return now + 1;
    const Tick reset = *response.reset_ticks;
    if (response.remaining >= cost) {
        const Int128 spread = static_cast<Int128>(reset) * cost;
        return now + static_cast<Tick>((spread + response.remaining - 1) / response.remaining);
    }
    return now + std::max<Tick>(1, reset);
}

Rational percentile(const std::vector<Rational>& sorted, int percent) {
    if (sorted.empty())
        return Rational();
    // Nearest rank: the smallest value with at least `percent` % of the values at or below it.
    const std::size_t rank = (sorted.size() * static_cast<std::size_t>(percent) + 99) / 100;
    return sorted[std::max<std::size_t>(rank, 1) - 1];
}

}  // namespace

ClientRun run_clients(const Trace& trace, const Params& params, const Lane& lane,
                      const ClientPolicies& policies, const ClientOptions& options) {
    const Params lane_params = params_for_lane(params, lane);
    const AlgorithmInfo* info = Registry::instance().find(lane.algorithm);
    if (!info)
        throw SimulationError("unknown algorithm \"" + lane.algorithm + "\"");
    const std::size_t count = trace.requests.size();
    const std::size_t keys = trace.keys.size();
    std::vector<const ClientPolicy*> policy_of(keys);
    bool any_paced = false;
    for (std::size_t k = 0; k < keys; ++k) {
        policy_of[k] = &policies.for_key(trace.keys[k]);
        any_paced = any_paced || policy_of[k]->kind == ClientKind::paced;
    }
    const bool with_responses = options.responses || any_paced;
    LaneLimiters limiters(trace, lane_params, *info, with_responses);

    ClientRun run;
    run.served_by.assign(count, std::nullopt);
    std::priority_queue<Pending, std::vector<Pending>, std::greater<>> queue;
    std::vector<std::deque<std::size_t>> paced_waiting(any_paced ? keys : 0);
    std::vector<Tick> paced_ready(any_paced ? keys : 0, 0);
    for (std::size_t i = 0; i < count; ++i) {
        const Request& request = trace.requests[i];
        if (policy_of[request.key]->kind != ClientKind::paced) {
            queue.push({request.tick, i, 1});
            continue;
        }
        // Only the first of a paced key's intents is scheduled; the others wait their turn.
        std::deque<std::size_t>& waiting = paced_waiting[request.key];
        if (waiting.empty())
            queue.push({request.tick, i, 1});
        waiting.push_back(i);
    }
    std::vector<Tick> first_tick(count, 0);
    std::vector<std::optional<Quota>> quotas(with_responses ? keys : 0);
    std::vector<int> rejected_statuses(with_responses ? keys : 0, 429);
    // A paced key is done with its head intent: the next one goes when it may.
    auto next_paced = [&](KeyId key, Tick now) {
        std::deque<std::size_t>& waiting = paced_waiting[key];
        waiting.pop_front();
        if (!waiting.empty()) {
            const std::size_t next = waiting.front();
            queue.push({std::max({trace.requests[next].tick, paced_ready[key], now}), next, 1});
        }
    };

    while (!queue.empty()) {
        const Pending pending = queue.top();
        queue.pop();
        const Request& request = trace.requests[pending.intent];
        const ClientPolicy& policy = *policy_of[request.key];
        const bool paced = policy.kind == ClientKind::paced;
        if (pending.attempt == 1)
            first_tick[pending.intent] = pending.tick;
        const auto [limiter, local] = limiters.of(request.key);
        const Decision decision =
            limiter->decide(local, pending.tick, request.cost, trace.duration(pending.intent));
        run.attempts.push_back({pending.intent, pending.attempt, pending.tick, decision});
        if (with_responses) {
            std::optional<Quota>& quota = quotas[request.key];
            const Limits& limits = lane_params.for_key(trace.keys[request.key]);
            if (!quota) {
                quota = quota_of(*info, limits);
                rejected_statuses[request.key] = rejection_status(*info, limits);
            }
            run.responses.push_back(respond(*limiter, local, pending.tick, decision, *quota,
                                            limits.tick_ms, rejected_statuses[request.key]));
        }
        // A paced client's next request goes when what it was just told allows: this intent
        // again if it retries, else the next one it holds, whose cost may differ.
        auto told_ready = [&](std::size_t intent) {
            return paced_next(pending.tick, run.responses.back(), trace.requests[intent].cost);
        };
        std::optional<Tick> retry;
        if (!decision.accepted && pending.attempt < policy.max_attempts) {
            if (paced) {
                if (!decision.retry_never)
                    retry = std::max(told_ready(pending.intent), pending.tick + 1);
            } else if (const auto wait =
                           retry_wait(policy, pending.intent, pending.attempt, decision)) {
                retry = pending.tick + *wait;
            }
        }
        if (retry && policy.deadline && *retry - first_tick[pending.intent] > *policy.deadline)
            retry.reset();
        if (decision.accepted)
            run.served_by[pending.intent] = run.attempts.size() - 1;
        if (retry) {
            queue.push({*retry, pending.intent, pending.attempt + 1});
        } else if (paced) {
            const std::deque<std::size_t>& waiting = paced_waiting[request.key];
            if (waiting.size() > 1)
                paced_ready[request.key] = told_ready(waiting[1]);
            next_paced(request.key, pending.tick);
        }
    }
    run.intents = intent_figures(trace, run);
    return run;
}

IntentFigures intent_figures(const Trace& trace, const ClientRun& run) {
    IntentFigures figures;
    std::vector<Rational> times;
    std::int64_t served_attempts = 0;
    for (std::size_t i = 0; i < run.served_by.size(); ++i) {
        if (!run.served_by[i])
            continue;
        const Attempt& accepted = run.attempts[*run.served_by[i]];
        ++figures.served;
        served_attempts += accepted.attempt;
        times.push_back(Rational(accepted.tick - trace.requests[i].tick) +
                        accepted.decision.delay.value_or(Rational()));
    }
    figures.abandoned = static_cast<std::int64_t>(run.served_by.size()) - figures.served;
    figures.attempts = static_cast<std::int64_t>(run.attempts.size());
    for (const Attempt& attempt : run.attempts)
        figures.rejections += attempt.decision.accepted ? 0 : 1;
    if (figures.served > 0) {
        figures.attempts_per_success = Rational(served_attempts, figures.served);
        figures.rejections_per_success = Rational(figures.rejections, figures.served);
    }
    std::sort(times.begin(), times.end());
    figures.time_to_success = {percentile(times, 50), percentile(times, 95),
                               times.empty() ? Rational() : times.back()};
    return figures;
}

AttemptsPerTick attempts_per_tick(const ClientRun& run) {
    AttemptsPerTick series;
    if (run.attempts.empty())
        return series;
    // Attempts are in decision order, so by tick: the first and the last bound the span.
    series.first = run.attempts.front().tick;
    const auto span = static_cast<std::size_t>(run.attempts.back().tick - series.first + 1);
    series.offered.assign(span, 0);
    series.accepted.assign(span, 0);
    series.rejected.assign(span, 0);
    for (const Attempt& attempt : run.attempts) {
        const auto at = static_cast<std::size_t>(attempt.tick - series.first);
        ++series.offered[at];
        ++(attempt.decision.accepted ? series.accepted : series.rejected)[at];
    }
    return series;
}

}  // namespace ratelab
