#pragma once

#include "pattern_args.h"
#include "ratelab/io/trace_file.h"

namespace ratelab::io::detail {

// One function per pattern of generators.cpp's table. Each fills the trace, name and
// description; generate_pattern() sets the limit and window.
TraceDocument make_boundary_burst(const PatternArgs& args, SeededRandom& random);
TraceDocument make_steady(const PatternArgs& args, SeededRandom& random);
TraceDocument make_on_off(const PatternArgs& args, SeededRandom& random);
TraceDocument make_idle_burst(const PatternArgs& args, SeededRandom& random);
TraceDocument make_ramp(const PatternArgs& args, SeededRandom& random);
TraceDocument make_poisson(const PatternArgs& args, SeededRandom& random);
TraceDocument make_weighted_costs(const PatternArgs& args, SeededRandom& random);
TraceDocument make_zipf_keys(const PatternArgs& args, SeededRandom& random);

/// The most ticks a generated trace spans, and the most requests it holds.
inline constexpr std::int64_t kMaxGeneratedTicks = 100'000'000;
inline constexpr std::size_t kMaxGeneratedRequests = 10'000'000;

}  // namespace ratelab::io::detail

namespace ratelab::io::detail {

/// Adds one request, refusing to grow a trace past kMaxGeneratedRequests.
inline void add_request(TraceBuilder& builder, Tick tick, std::uint32_t cost = 1,
                        std::string_view key = {}) {
    if (builder.size() >= kMaxGeneratedRequests) {
        throw GeneratorError("the pattern would make more than " +
                             std::to_string(kMaxGeneratedRequests) +
                             " requests; lower its rate or duration");
    }
    builder.add(tick, cost, key);
}

}  // namespace ratelab::io::detail
