// Patterns without randomness: the same parameters always place requests on the same ticks.
#include "patterns.h"
#include "ratelab/limits.h"
#include "ratelab/tick_text.h"

namespace ratelab::io::detail {

namespace {

TraceDocument document(std::string name, std::string description, TraceBuilder&& builder) {
    TraceDocument doc;
    doc.name = std::move(name);
    doc.description = std::move(description);
    doc.trace = std::move(builder).take();
    return doc;
}

std::string str(std::int64_t value) {
    return std::to_string(value);
}

}  // namespace

TraceDocument make_boundary_burst(const PatternArgs& args, SeededRandom&) {
    const std::int64_t boundary = args.integer("boundary", 0, bounds::kMaxTick / 2);
    const std::int64_t before = args.integer("before", 0, boundary);
    const std::int64_t after = args.integer("after", 0, kMaxGeneratedTicks);
    TraceBuilder builder;
    for (Tick tick = boundary - before; tick < boundary + after; ++tick) {
        add_request(builder, tick);
    }
    return document("Boundary burst",
                    str(before) + " requests on the ticks just before the window boundary at " +
                        str(boundary) + ", then " + str(after) + " from the boundary on.",
                    std::move(builder));
}

TraceDocument make_steady(const PatternArgs& args, SeededRandom&) {
    const std::int64_t window = args.integer("window", 1, bounds::kMaxWindow);
    const std::int64_t per_window = args.integer("per_window", 1, bounds::kMaxLimit);
    const std::int64_t duration = args.integer("duration", 1, kMaxGeneratedTicks);
    const std::int64_t start = args.integer("start", 0, bounds::kMaxTick / 2);
    TraceBuilder builder;
    for (std::int64_t i = 0;; ++i) {
        // Request i sits at floor(i * W / per_window): evenly spread, exact in integers.
        const auto offset = static_cast<Tick>(static_cast<Int128>(i) * window / per_window);
        if (offset >= duration) {
            break;
        }
        add_request(builder, start + offset);
    }
    return document("Steady traffic",
                    str(per_window) + " requests per " + ticks_text(window) +
                        ", evenly spaced, for " + ticks_text(duration) + ".",
                    std::move(builder));
}

TraceDocument make_on_off(const PatternArgs& args, SeededRandom&) {
    const std::int64_t on = args.integer("on", 1, kMaxGeneratedTicks);
    const std::int64_t off = args.integer("off", 0, kMaxGeneratedTicks);
    const std::int64_t per_tick = args.integer("per_tick", 1, 1000);
    const std::int64_t cycles = args.integer("cycles", 1, kMaxGeneratedTicks / (on + off));
    TraceBuilder builder;
    for (std::int64_t cycle = 0; cycle < cycles; ++cycle) {
        for (Tick tick = cycle * (on + off); tick < cycle * (on + off) + on; ++tick) {
            for (std::int64_t i = 0; i < per_tick; ++i) {
                add_request(builder, tick);
            }
        }
    }
    return document("On/off bursts",
                    str(cycles) + " bursts of " + ticks_text(on) + " with " + str(per_tick) +
                        " request(s) per tick, each followed by " + ticks_text(off) + " of quiet.",
                    std::move(builder));
}

TraceDocument make_idle_burst(const PatternArgs& args, SeededRandom&) {
    const std::int64_t idle = args.integer("idle", 0, kMaxGeneratedTicks);
    const std::int64_t burst = args.integer("burst", 1, 1'000'000);
    const std::int64_t spread = args.integer("spread", 1, kMaxGeneratedTicks);
    TraceBuilder builder;
    for (std::int64_t i = 0; i < burst; ++i) {
        add_request(builder, idle + i * spread / burst);
    }
    return document("Idle, then a burst",
                    "Nothing for " + ticks_text(idle) + ", then " + str(burst) +
                        " requests within " + ticks_text(spread) + ".",
                    std::move(builder));
}

TraceDocument make_ramp(const PatternArgs& args, SeededRandom&) {
    const Rational most(1000);
    const double from = args.rational("from", Rational(0), most).to_double();
    const double to = args.rational("to", Rational(0), most).to_double();
    const std::int64_t duration = args.integer("duration", 1, kMaxGeneratedTicks);
    TraceBuilder builder;
    // The running total of the rate decides how many requests each tick gets; only IEEE
    // addition, multiplication and division are used, so every machine gets the same ticks.
    double expected = 0;
    std::int64_t placed = 0;
    for (Tick tick = 0; tick < duration; ++tick) {
        const double progress = (static_cast<double>(tick) + 0.5) / static_cast<double>(duration);
        expected += from + (to - from) * progress;
        for (; placed < static_cast<std::int64_t>(expected); ++placed) {
            add_request(builder, tick);
        }
    }
    return document("Ramp",
                    "A rate growing from " + args.text("from") + " to " + args.text("to") +
                        " requests per tick over " + ticks_text(duration) + ".",
                    std::move(builder));
}

}  // namespace ratelab::io::detail
