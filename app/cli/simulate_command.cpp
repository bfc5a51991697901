// ratelab-cli simulate: runs the algorithms over a trace file and prints the JSON report.
#include <memory>

#include "cli_support.h"
#include "ratelab/io/report.h"
#include "ratelab/io/trace_file.h"
#include "ratelab/limits.h"
#include "ratelab/registry.h"

namespace ratelab::cli {

namespace {

std::vector<std::string> chosen_algorithms(const Arguments& args) {
    const auto list = args.get("algorithms");
    if (!list) {
        return {};
    }
    std::vector<std::string> ids = split_list(*list);
    if (ids.empty()) {
        throw UsageError("--algorithms needs at least one algorithm id");
    }
    for (const std::string& id : ids) {
        if (!Registry::instance().find(id)) {
            std::string known;
            for (const std::string& name : Registry::instance().ids()) {
                known += (known.empty() ? "" : ", ") + name;
            }
            throw UsageError("unknown algorithm \"" + id + "\" (known: " + known + ")");
        }
    }
    return ids;
}

int run_simulate(const Arguments& args, CommandIo& io) {
    io::TraceDocument doc = io::load_trace(args.positionals[0]);
    for (const std::string& warning : doc.warnings) {
        io.err << "ratelab-cli simulate: " << args.positionals[0] << ": " << warning << "\n";
    }
    if (auto limit = args.integer("limit", 1, bounds::kMaxLimit)) {
        doc.params.base.limit = *limit;
    }
    if (auto window = args.integer("window", 1, bounds::kMaxWindow)) {
        doc.params.base.window = *window;
    }
    const auto trace = std::make_shared<const Trace>(std::move(doc.trace));
    io::ReportOptions options;
    options.summary = args.has("summary");
    RunOptions run;
    run.keep_decisions = !options.summary;  // a summary needs no per-request columns
    const auto result = simulate(trace, doc.params, chosen_algorithms(args), run);
    write_output(args, io::format_json(io::make_report(*result, options)), io);
    return kExitOk;
}

}  // namespace

Command make_simulate_command() {
    return {"simulate",
            "run the algorithms over a trace and print a JSON report",
            "simulate TRACE.json [options]",
            "The report lists, per algorithm, the accepted and rejected counts and costs, the\n"
            "worst W-tick burst and every decision (times in ticks; \"retry_after\": \"never\"\n"
            "when a request can never pass). See README.md, \"Command line\".",
            {{"limit", "L", "override the trace's limit L"},
             {"window", "W", "override the trace's window W (ticks)"},
             {"algorithms", "ID,...", "run only these algorithms, in this order"},
             {"summary", "", "totals and worst bursts only, without the decisions"},
             output_option("the report")},
            1,
            1,
            false,
            run_simulate};
}

}  // namespace ratelab::cli
