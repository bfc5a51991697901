#include "simulation_invariants.h"

#include <algorithm>
#include <exception>
#include <numeric>
#include <string>
#include <vector>

#include "fuzz_support.h"
#include "oracles.h"
#include "ratelab/key_figures.h"
#include "ratelab/limits.h"
#include "ratelab/registry.h"
#include "ratelab/series.h"
#include "ratelab/simulation.h"

namespace ratelab::fuzz {
namespace {

std::string describe(const Params& params) {
    std::string text = "L=" + std::to_string(params.base.limit) +
                       " W=" + std::to_string(params.base.window) +
                       (params.rejections_count ? " rejections_count" : "");
    for (const auto& [key, limits] : params.keys) {
        text += " tier[" + key + "]=" + std::to_string(limits.limit) + "/" +
                std::to_string(limits.window);
    }
    return text;
}

std::shared_ptr<const SimulationResult> simulate_or_abort(std::shared_ptr<const Trace> trace,
                                                          const Params& params,
                                                          const std::vector<std::string>& ids,
                                                          const RunOptions& options = {}) {
    try {
        return simulate(std::move(trace), params, ids, options);
    } catch (const std::exception& e) {
        FUZZ_CHECK(false,
                   "simulate threw on valid input: " << e.what() << "; " << describe(params));
    }
}

/// Counts add up, and every stored decision is consistent with the request it belongs to.
void check_totals_and_decisions(const Trace& trace, const Params& params, const AlgorithmRun& run) {
    const std::size_t n = trace.requests.size();
    FUZZ_CHECK(run.decisions.size() == n, run.id);
    FUZZ_CHECK(run.totals.accepted + run.totals.rejected == static_cast<std::int64_t>(n), run.id);
    std::int64_t accepted = 0;
    std::int64_t accepted_cost = 0;
    std::int64_t rejected_cost = 0;
    std::int64_t largest_accepted = 0;
    Rational max_delay;
    for (std::size_t i = 0; i < n; ++i) {
        const Request& r = trace.requests[i];
        const Decision d = run.decision(trace, i);
        const EffectiveLimits e = effective(params.for_key(trace.key_name(r.key)));
        if (d.accepted) {
            ++accepted;
            accepted_cost += r.cost;
            largest_accepted = std::max<std::int64_t>(largest_accepted, r.cost);
            FUZZ_CHECK(!d.retry_after && !d.retry_never, run.id << " request " << i);
            FUZZ_CHECK(d.release.has_value() == run.releases, run.id << " request " << i);
            if (run.releases) {
                FUZZ_CHECK(*d.delay >= Rational(0) && *d.release == Rational(r.tick) + *d.delay,
                           run.id << " request " << i << " delay " << d.delay->to_string());
                // Nothing waits longer than a full queue takes to drain.
                FUZZ_CHECK(*d.delay <= Rational(e.queue_size) * e.drain_interval,
                           "request " << i << " delay " << d.delay->to_string());
                max_delay = std::max(max_delay, *d.delay);
            }
        } else {
            rejected_cost += r.cost;
            FUZZ_CHECK(d.retry_never != d.retry_after.has_value(), run.id << " request " << i);
            if (d.retry_after) {
                FUZZ_CHECK(*d.retry_after > Rational(0),
                           run.id << " request " << i << " retry " << d.retry_after->to_string());
            }
        }
    }
    FUZZ_CHECK(accepted == run.totals.accepted, run.id);
    FUZZ_CHECK(accepted_cost == run.totals.accepted_cost, run.id);
    FUZZ_CHECK(rejected_cost == run.totals.rejected_cost, run.id);
    FUZZ_CHECK(max_delay == run.totals.max_delay, run.id << " max delay "
                                                         << run.totals.max_delay.to_string()
                                                         << " vs " << max_delay.to_string());
    FUZZ_CHECK(run.worst_burst.cost <= accepted_cost, run.id);
    if (!run.releases) {
        FUZZ_CHECK(run.worst_burst.cost >= largest_accepted, run.id);
    }
}

/// The per-algorithm ceilings on a worst burst, for a trace of one key under the base limits:
/// each lane against its own parameters, whatever lanes the trace chose.
void check_burst_ceilings(const Params& params, const SimulationResult& result) {
    const std::int64_t L = params.base.limit;
    const Tick W = params.base.window;
    for (std::size_t lane = 0; lane < result.runs.size(); ++lane) {
        const AlgorithmRun& run = result.runs[lane];
        const EffectiveLimits e = effective(result.lane_params[lane].base);
        const Int128 worst = run.worst_burst.cost;
        if (run.id == "sliding_log") {
            FUZZ_CHECK(worst <= L, describe(params));
        } else if (run.id == "fixed_window" || run.id == "sliding_counter") {
            FUZZ_CHECK(worst <= 2 * L, run.id << "; " << describe(params));
        } else if (run.id == "token_bucket") {
            // A full bucket plus what refills during the other W - 1 ticks.
            const Rational& r = e.refill_rate;
            FUZZ_CHECK(worst * r.den() <= static_cast<Int128>(e.capacity) * r.den() +
                                              static_cast<Int128>(r.num()) * (W - 1),
                       describe(params));
        } else if (run.id == "gcra") {
            const Rational& t = e.emission_interval;
            FUZZ_CHECK(worst * t.num() <= static_cast<Int128>(e.burst) * t.num() +
                                              static_cast<Int128>(t.den()) * (W - 1),
                       describe(params));
        } else if (run.id == "leaky_bucket") {
            // Units leave at least D apart, so at most ceil(W / D) start inside W ticks.
            const Rational& d = e.drain_interval;
            FUZZ_CHECK(worst <= ceil_ratio(static_cast<Int128>(W) * d.den(), d.num()),
                       describe(params));
        }
    }
}

void check_brute_force_bursts(const Trace& trace, const SimulationResult& result,
                              const InvariantOptions& options) {
    for (std::size_t lane = 0; lane < result.runs.size(); ++lane) {
        const AlgorithmRun& run = result.runs[lane];
        const Params& params = result.lane_params[lane];
        if (!run.releases) {
            const std::int64_t expected = arrival_burst(trace, run, params.base.window);
            FUZZ_CHECK(run.worst_burst.cost == expected,
                       run.id << " worst burst " << run.worst_burst.cost << ", brute force "
                              << expected << "; " << describe(params));
        } else if (auto units =
                       released_units(trace, run, params, options.unit_brute_force_up_to)) {
            const std::int64_t expected = unit_burst(*units, params.base.window);
            FUZZ_CHECK(run.worst_burst.cost == expected,
                       run.id << " worst burst " << run.worst_burst.cost << ", brute force "
                              << expected << "; " << describe(params));
        }
    }
}

/// explain() replays the same state, so it must reach the stored decision.
void check_explanations(const SimulationResult& result) {
    const Trace& trace = *result.trace;
    for (std::size_t lane = 0; lane < result.runs.size(); ++lane) {
        const AlgorithmRun& run = result.runs[lane];
        for (std::size_t i = 0; i < trace.requests.size(); ++i) {
            const Explanation why = explain(result, lane, i);
            FUZZ_CHECK(why.decision == run.decision(trace, i), run.id << " request " << i);
            FUZZ_CHECK(!why.check.empty() && !why.state_before.empty(), run.id);
            // RateLab's own algorithms forget a rejection unless rejections count; a library
            // preset follows its library, and several count rejected hits whatever the setting
            // (python_limits_fixed, express_rate_limit, rate_limiter_flexible).
            const AlgorithmInfo* info = Registry::instance().find(run.id);
            const bool own = info == nullptr || !info->is_preset();
            if (own && !why.decision.accepted && !result.params.rejections_count) {
                FUZZ_CHECK(why.state_before == why.state_after,
                           run.id << " request " << i << ": a rejection changed the state");
            }
        }
    }
}

/// Retrying a rejected request after exactly ceil(retry-after) ticks is accepted, one tick
/// sooner is not. The replay keeps the rejected attempt, which may count against the caller.
void check_retry_is_tight(const Trace& trace, const SimulationResult& result) {
    for (std::size_t lane = 0; lane < result.runs.size(); ++lane) {
        const AlgorithmRun& run = result.runs[lane];
        // The lane alone, with its own values: what it ran with.
        const Params& params = result.lane_params[lane];
        std::size_t i = 0;
        while (i < run.decisions.size() && run.outcome(i) != AlgorithmRun::kRejected)
            ++i;
        if (i == run.decisions.size())
            continue;
        const Request r = trace.requests[i];
        const Tick wait = run.decision(trace, i).retry_after->ceil();
        for (const Tick delta : {wait, wait - 1}) {
            if (r.tick + delta > bounds::kMaxTick)
                continue;
            // The first i + 1 requests with their durations, then the retry, which holds for
            // as long as the request it repeats.
            Trace retry;
            retry.keys = trace.keys;
            for (std::size_t j = 0; j <= i; ++j)
                retry.append_from(trace, j);
            retry.append(Request{r.tick + delta, r.cost, r.key}, trace.duration(i));
            const auto replay =
                simulate_or_abort(std::make_shared<const Trace>(std::move(retry)), params, {});
            FUZZ_CHECK(replay->runs[0].accepted(i + 1) == (delta == wait),
                       run.id << " request " << i << " at tick " << r.tick << " retry-after "
                              << run.decision(trace, i).retry_after->to_string()
                              << ", retried after " << delta << "; " << describe(params));
        }
    }
}

void check_series(const SimulationResult& result) {
    const ResultSeries series = compute_series(result);
    FUZZ_CHECK(series.algorithms.size() == result.runs.size(), "series");
    for (std::size_t a = 0; a < result.runs.size(); ++a) {
        const AlgorithmRun& run = result.runs[a];
        const AlgorithmSeries& s = series.algorithms[a];
        // The run's headline is over the top-level W; a trace of one key with a tier of its own
        // is charted against that key's own L and W, so its series gives the key's figure.
        Burst expected = run.worst_burst;
        if (series.one_key && !result.lane_params[a].keys.empty() && has_key_figures(result, a)) {
            for (const KeyFigures& figures : key_figures(result, a).keys) {
                if (figures.key == *series.one_key)
                    expected = figures.worst_burst;
            }
        }
        FUZZ_CHECK(s.worst_burst == expected, run.id << " series " << s.worst_burst.cost << " from "
                                                     << s.worst_burst.start.to_string()
                                                     << ", expected " << expected.cost << " from "
                                                     << expected.start.to_string() << "; "
                                                     << describe(result.params));
        FUZZ_CHECK((s.accepted.empty() ? 0 : s.accepted.values.back()) == run.totals.accepted_cost,
                   run.id);
        FUZZ_CHECK((s.rejected.empty() ? 0 : s.rejected.values.back()) == run.totals.rejected_cost,
                   run.id);
        if (!run.releases) {
            FUZZ_CHECK(s.load.max() == expected.cost, run.id << " load peak " << s.load.max()
                                                             << ", worst burst " << expected.cost);
        }
        const auto from = static_cast<double>(series.from);
        const auto to = static_cast<double>(series.to);
        FUZZ_CHECK(decimate(s.load, from, to, 7).size() <= 4 * 7 + 2, run.id);
        decimate(s.level, from, to, 5);
        decimate(s.delays, from, to, 3);
    }
}

/// An edit re-simulated gives what simulating the edited trace from the start gives, and the
/// key figures counted again for the keys it touched equal those counted over every key: the
/// middle request removed, then its cost changed instead.
void check_edits(const Trace& trace, const Params& params, const SimulationResult& result) {
    if (trace.requests.empty())
        return;
    const std::size_t middle = trace.requests.size() / 2;
    Trace removed = trace;
    removed.requests.erase(removed.requests.begin() + static_cast<std::ptrdiff_t>(middle));
    if (!removed.durations.empty())
        removed.durations.erase(removed.durations.begin() + static_cast<std::ptrdiff_t>(middle));
    Trace costlier = trace;
    costlier.requests[middle].cost =
        static_cast<std::uint32_t>(costlier.requests[middle].cost % bounds::kMaxCost + 1);
    const auto before_keys = every_lane_key_figures(result);
    for (Trace* edited : {&removed, &costlier}) {
        const auto after = std::make_shared<const Trace>(*edited);
        std::shared_ptr<const SimulationResult> quick;
        try {
            quick = resimulate(result, after);
        } catch (const std::exception& e) {
            FUZZ_CHECK(false, "resimulate threw on a valid edit: " << e.what() << "; "
                                                                   << describe(params));
        }
        const auto fresh = simulate_or_abort(after, params, {});
        for (std::size_t lane = 0; lane < fresh->runs.size(); ++lane) {
            const AlgorithmRun& got = quick->runs[lane];
            const AlgorithmRun& want = fresh->runs[lane];
            FUZZ_CHECK(
                got.decisions == want.decisions && got.totals == want.totals &&
                    got.worst_burst == want.worst_burst,
                want.id << ": an edit re-simulated differs from a fresh run; " << describe(params));
        }
        FUZZ_CHECK(every_lane_key_figures_after_edit(*quick, result, before_keys) ==
                       every_lane_key_figures(*fresh),
                   "key figures counted again after an edit differ; " << describe(params));
    }
}

}  // namespace

void check_simulation(const std::shared_ptr<const Trace>& trace, const Params& params,
                      const InvariantOptions& options) {
    FUZZ_CHECK(validate(params).empty(), "the fuzzer built invalid parameters");
    FUZZ_CHECK(validate(*trace).empty(), "the fuzzer built an invalid trace");
    const auto result = simulate_or_abort(trace, params, {});
    // Each lane against the parameters it ran with: its own values over the trace's.
    for (std::size_t lane = 0; lane < result->runs.size(); ++lane)
        check_totals_and_decisions(*trace, result->lane_params[lane], result->runs[lane]);

    // Without decisions, the same totals and bursts.
    const auto lean = simulate_or_abort(trace, params, {}, RunOptions{false});
    for (std::size_t a = 0; a < result->runs.size(); ++a) {
        FUZZ_CHECK(lean->runs[a].totals == result->runs[a].totals, result->runs[a].id);
        FUZZ_CHECK(lean->runs[a].worst_burst == result->runs[a].worst_burst, result->runs[a].id);
        FUZZ_CHECK(!lean->runs[a].has_decisions(), result->runs[a].id);
    }

    const bool one_key =
        std::all_of(trace->requests.begin(), trace->requests.end(),
                    [&](const Request& r) { return r.key == trace->requests[0].key; });
    if (!trace->requests.empty() && one_key &&
        params.for_key(trace->key_name(trace->requests[0].key)) == params.base) {
        check_burst_ceilings(params, *result);
    }

    // Only the default lanes hold one token bucket and one GCRA at the trace's values.
    bool mirrored = params.lanes.empty() && gcra_mirrors_bucket(params.base);
    for (const auto& [key, limits] : params.keys)
        mirrored = mirrored && gcra_mirrors_bucket(limits);
    if (mirrored) {
        const AlgorithmRun& bucket = *result->find("token_bucket");
        const AlgorithmRun& gcra = *result->find("gcra");
        for (std::size_t i = 0; i < trace->requests.size(); ++i) {
            FUZZ_CHECK(bucket.outcome(i) == gcra.outcome(i) &&
                           bucket.retry_after(i) == gcra.retry_after(i),
                       "request " << i << ": token_bucket " << int(bucket.outcome(i)) << " "
                                  << bucket.retry_after(i).to_string() << ", gcra "
                                  << int(gcra.outcome(i)) << " " << gcra.retry_after(i).to_string()
                                  << "; " << describe(params));
        }
    }

    if (trace->requests.size() <= options.thorough_up_to) {
        check_brute_force_bursts(*trace, *result, options);
        check_explanations(*result);
        check_retry_is_tight(*trace, *result);
    }
    for (KeyId key = 0; key < trace->keys.size(); ++key) {
        const Tick at = trace->requests.empty() ? 0 : trace->requests.back().tick;
        for (std::size_t lane = 0; lane < result->runs.size(); ++lane)
            FUZZ_CHECK(!state_at(*result, lane, key, at).summary.empty(), result->runs[lane].id);
    }
    check_series(*result);
    check_edits(*trace, params, *result);
}

}  // namespace ratelab::fuzz
