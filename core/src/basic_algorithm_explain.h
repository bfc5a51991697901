#pragma once
// Part of basic_algorithm.h, which includes it at its end: a limiter's state at any tick and
// the explanation of one decision, replayed from the last checkpoint before them.

#include <algorithm>
#include <span>

#include "basic_algorithm.h"
#include "reference_engine.h"

namespace ratelab::detail {

template <class P>
typename P::State BasicAlgorithm<P>::replay(const Trace& trace, const Params& params,
                                            const Config& config, KeyId key, std::size_t end,
                                            const AlgorithmRun* run) {
    std::size_t begin = 0;
    State state = P::initial(config);
    if (const Checkpoints* checkpoints = run != nullptr ? saved_by(*run) : nullptr) {
        const Checkpoints& saved = *checkpoints;
        const std::size_t c = at_or_before(saved, end);
        state = (*saved.states[c])[key];
        begin = saved.positions[c];
    }
    // With many keys there is no checkpoint to start from: the key's own requests when the
    // run holds where they are, else a piece of the column at a time from the first.
    if (run != nullptr && begin == 0 && run->key_index && run->key_index->fits(trace)) {
        for (const std::uint32_t i : run->key_index->of(key)) {
            if (i >= end)
                break;
            const Request& r = trace.requests[i];
            decide_request<P>(config, state, r.tick, r.cost, trace.duration(i),
                              params.rejections_count);
        }
        return state;
    }
    for (std::size_t i = begin; i < end;) {
        const std::span<const Request> piece = trace.requests.contiguous(i, end);
        for (std::size_t k = 0; k < piece.size(); ++k) {
            const Request& r = piece[k];
            if (r.key == key)
                decide_request<P>(config, state, r.tick, r.cost, trace.duration(i + k),
                                  params.rejections_count);
        }
        i += piece.size();
    }
    return state;
}

template <class P>
LimiterState BasicAlgorithm<P>::state_at(const Trace& trace, const Params& params, KeyId key,
                                         Tick at, const AlgorithmRun* run) const {
    const Config config = P::configure(params.for_key(trace.key_name(key)));
    const auto end = std::partition_point(trace.requests.begin(), trace.requests.end(),
                                          [at](const Request& r) { return r.tick <= at; });
    const State state = replay(trace, params, config, key,
                               static_cast<std::size_t>(end - trace.requests.begin()), run);
    return P::describe(config, state, at);
}

template <class P>
Explanation BasicAlgorithm<P>::explain(const Trace& trace, const Params& params, std::size_t index,
                                       const AlgorithmRun* run) const {
    const Request& target = trace.requests.at(index);
    const Config config = P::configure(params.for_key(trace.key_name(target.key)));
    State state = replay(trace, params, config, target.key, index, run);
    return explain_decision<P>(config, state, target.tick, target.cost, trace.duration(index),
                               params.rejections_count);
}

}  // namespace ratelab::detail
