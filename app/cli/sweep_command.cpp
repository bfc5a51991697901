// ratelab-cli sweep: runs the lanes over a trace at every point of a grid of settings, and
// prints one row per point and lane; or, with --fit, the exact settings that reject nothing.
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>

#include "cli_support.h"
#include "ratelab/io/sweep_output.h"
#include "ratelab/io/sweep_spec.h"
#include "ratelab/io/terminal_text.h"
#include "ratelab/io/trace_file.h"

namespace ratelab::cli {

namespace {

/// Decisions in all past which a sweep is long enough to show its progress on a terminal.
constexpr double kLongSweep = 50e6;

io::SweepFormat format_of(const Arguments& args) {
    if (args.has("json") && args.has("csv")) {
        throw UsageError("give --json or --csv, not both");
    }
    return args.has("json")  ? io::SweepFormat::json
           : args.has("csv") ? io::SweepFormat::csv
                             : io::SweepFormat::table;
}

std::vector<SweepAxis> axes_of(const Arguments& args) {
    try {
        return io::parse_sweep_axes(args.all("vary"));
    } catch (const io::SweepSpecError& error) {
        throw UsageError(std::string("--vary ") + error.what());
    }
}

/// "sweep: 120 of 1200 runs" on a terminal, rewritten in place, for sweeps that take a while.
std::function<void(std::size_t, std::size_t)> progress_for(std::size_t requests,
                                                           std::size_t runs_at_most) {
    if (!::isatty(STDERR_FILENO) ||
        static_cast<double>(requests) * static_cast<double>(runs_at_most) < kLongSweep) {
        return {};
    }
    return [](std::size_t done, std::size_t total) {
        std::fprintf(stderr, "\rsweep: %zu of %zu runs", done, total);
        if (done == total) {
            std::fprintf(stderr, "\n");
        }
    };
}

int run_fit(const Arguments& args, const io::TraceDocument& doc, const std::vector<SweepAxis>& axes,
            io::SweepFormat format, CommandIo& io) {
    const std::string fit = args.get("fit").value_or("");
    if (fit != "zero-rejections") {
        throw UsageError("--fit takes zero-rejections, not \"" + fit + "\"");
    }
    const std::vector<Lane> lanes = sweep_lanes(doc.params, axes);
    const bool any = std::any_of(lanes.begin(), lanes.end(), [](const Lane& lane) {
        return has_zero_rejection_fit(lane.algorithm);
    });
    if (!any) {
        throw UsageError(
            "--fit zero-rejections answers for token_bucket and gcra lanes, and "
            "none is given");
    }
    SweepOptions options;
    options.progress =
        progress_for(doc.trace.requests.size(), sweep_point_count(axes) * lanes.size());
    const FitSweepResult result = sweep_fits(doc.trace, doc.params, axes, options);
    write_output(args, io::format_fits(result, format), io);
    return kExitOk;
}

int run_sweep(const Arguments& args, CommandIo& io) {
    const io::SweepFormat format = format_of(args);
    io::TraceDocument doc = io::load_trace(args.positionals[0]);
    for (const std::string& warning : doc.warnings) {
        io.err << "ratelab-cli sweep: " << io::terminal_safe(args.positionals[0]) << ": "
               << io::terminal_safe(warning) << "\n";
    }
    apply_lane_options(args, doc.params);
    const std::vector<SweepAxis> axes = axes_of(args);
    if (args.has("fit")) {
        return run_fit(args, doc, axes, format, io);
    }
    if (axes.empty()) {
        throw UsageError("give at least one --vary NAME=A..B[:STEP] or --vary NAME=V1,V2,...");
    }
    SweepOptions options;
    options.progress = progress_for(doc.trace.requests.size(),
                                    sweep_point_count(axes) * sweep_lanes(doc.params, axes).size());
    const SweepResult result = sweep(doc.trace, doc.params, axes, options);
    write_output(args, io::format_sweep(result, format), io);
    return kExitOk;
}

}  // namespace

Command make_sweep_command() {
    return {
        "sweep",
        "run the lanes at every value of one or more settings and tabulate them",
        "sweep TRACE.json --vary NAME=A..B[:STEP] [--vary NAME=V1,V2,...] [options]",
        "NAME is limit, window, or a lane parameter written ID.NAME (token_bucket.capacity);\n"
        "fractions such as 5/2 suit rational parameters. Every combination of the values is\n"
        "a point (at most 10000); each point runs every lane (those given, else the trace's;\n"
        "without either, one per algorithm the axes name when only lane parameters vary, else\n"
        "the default lanes). One row per point and lane: accepted, rejected, rejected %,\n"
        "rejected cost, worst burst, worst burst / L, the leaky bucket's longest and\n"
        "95th-percentile delay. Varying limit or window changes the trace's own limits; key\n"
        "tiers keep theirs. With --fit zero-rejections, prints instead, for each token_bucket\n"
        "and gcra lane at each point (one point without --vary), the smallest capacity\n"
        "(burst) that rejects nothing at its rate, and the smallest rate (largest emission\n"
        "interval) that rejects nothing at its capacity: exact, for all keys and per tier.\n"
        "See README.md, \"Sweeps\".",
        with_lane_options(
            {{"vary", "NAME=VALUES", "vary NAME over A..B[:STEP] or V1,V2,... (repeat for a grid)"},
             {"fit", "KIND", "print the smallest capacity and rate that reject nothing instead"},
             {"json", "", "write JSON instead of a table"},
             {"csv", "", "write CSV instead of a table"},
             output_option("the rows")}),
        1,
        1,
        false,
        run_sweep};
}

}  // namespace ratelab::cli
