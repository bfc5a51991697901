// ratelab-cli simulate: runs the algorithms over a trace file and prints the JSON report.
#include <memory>

#include "cli_support.h"
#include "ratelab/io/decisions_csv.h"
#include "ratelab/io/report.h"
#include "ratelab/io/terminal_text.h"
#include "ratelab/io/trace_file.h"
#include "ratelab/key_figures.h"
#include "ratelab/limits.h"
#include "ratelab/registry.h"

namespace ratelab::cli {

namespace {

int run_simulate(const Arguments& args, CommandIo& io) {
    io::TraceDocument doc = io::load_trace(args.positionals[0]);
    for (const std::string& warning : doc.warnings) {
        io.err << "ratelab-cli simulate: " << io::terminal_safe(args.positionals[0]) << ": "
               << io::terminal_safe(warning) << "\n";
    }
    if (auto limit = args.integer("limit", 1, bounds::kMaxLimit)) {
        doc.params.base.limit = *limit;
    }
    if (auto window = args.integer("window", 1, bounds::kMaxWindow)) {
        doc.params.base.window = *window;
    }
    apply_lane_options(args, doc.params);
    set_tick_ms(doc.params, doc.tick_ms);
    const auto trace = std::make_shared<const Trace>(std::move(doc.trace));
    io::ReportOptions options;
    options.summary = args.has("summary");
    RunOptions run;
    // A summary needs no per-request columns, but each key's figures, judged against its own
    // tier, are counted from them when the trace has several keys.
    run.keep_decisions = !options.summary || key_figures_need_decisions(*trace, doc.params);
    const std::string format = args.get("format").value_or("json");
    if (format != "json" && format != "ndjson" && format != "csv") {
        throw UsageError("--format must be json, ndjson or csv, not \"" + format + "\"");
    }
    if (format == "csv" && options.summary) {
        throw UsageError("--format csv lists the decisions, so it takes no --summary");
    }
    const auto result = simulate(trace, doc.params, {}, run);
    // Streamed as it is written: a full report of a million requests never sits in memory.
    write_output(args, io, [&](std::ostream& out) {
        if (format == "ndjson") {
            io::write_report_ndjson(out, *result, options);
        } else if (format == "csv") {
            io::write_decisions_csv(out, *result);
        } else {
            io::write_report(out, *result, options);
        }
    });
    return kExitOk;
}

}  // namespace

Command make_simulate_command() {
    return {
        "simulate",
        "run the algorithms over a trace and print a JSON report",
        "simulate TRACE.json [options]",
        "The report lists, per lane (the trace's lanes, or those given with --lane), its\n"
        "label and resolved parameters, the accepted and rejected counts and costs, the\n"
        "worst W-tick burst and every decision (times in ticks; \"retry_after\": \"never\"\n"
        "when a request can never pass). See README.md, \"Command line\".",
        with_lane_options({{"limit", "L", "override the trace's limit L"},
                           {"window", "W", "override the trace's window W (ticks)"},
                           {"summary", "", "totals and worst bursts only, without the decisions"},
                           {"format", "FORMAT",
                            "json (default), ndjson (one line per lane, then per decision) or "
                            "csv (one row per request and lane)"},
                           output_option("the report")}),
        1,
        1,
        false,
        run_simulate};
}

}  // namespace ratelab::cli
