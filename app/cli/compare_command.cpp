// ratelab-cli compare: a side-by-side table of every algorithm over one trace.
#include <memory>
#include <ostream>

#include "cli_support.h"
#include "ratelab/io/lane_spec.h"
#include "ratelab/io/terminal_text.h"
#include "ratelab/io/trace_file.h"
#include "ratelab/key_figures.h"
#include "ratelab/registry.h"
#include "ratelab/simulation.h"
#include "ratelab/tick_text.h"

namespace ratelab::cli {

namespace {

using Row = std::vector<std::string>;

std::string count_and_cost(std::int64_t count, std::int64_t cost) {
    return cost == count ? std::to_string(count)
                         : std::to_string(count) + " (cost " + std::to_string(cost) + ")";
}

/// A key as the table names it: the default key "" reads as (default).
std::string key_label(const std::string& key) {
    return key.empty() ? "(default)" : key;
}

/// "pro: 9 in 10 ticks > 8" for a key over its own L, "free: 2 in 10 ticks (L 2)" within it.
std::string worst_key_text(const Trace& trace, const LaneKeys& keys) {
    const KeyFigures* worst = keys.worst_key();
    if (worst == nullptr)
        return "-";
    const std::string limit = std::to_string(worst->limit);
    return io::terminal_safe(key_label(trace.key_name(worst->key))) + ": " +
           std::to_string(worst->worst_burst.cost) + " in " + ticks_text(worst->window) +
           (worst->over_limit() ? " > " + limit : " (L " + limit + ")");
}

/// Left-aligned text columns, numbers right-aligned, two spaces apart.
std::string render_table(const std::vector<Row>& rows, const std::vector<bool>& right_aligned) {
    std::vector<std::size_t> widths(rows.front().size(), 0);
    for (const Row& row : rows) {
        for (std::size_t c = 0; c < row.size(); ++c) {
            widths[c] = std::max(widths[c], row[c].size());
        }
    }
    std::string text;
    for (const Row& row : rows) {
        std::string line;
        for (std::size_t c = 0; c < row.size(); ++c) {
            const std::string pad(widths[c] - row[c].size(), ' ');
            const bool last = c + 1 == row.size();
            line += right_aligned[c] ? pad + row[c] : row[c] + (last ? "" : pad);
            line += last ? "" : "  ";
        }
        text += line + "\n";
    }
    return text;
}

int run_compare(const Arguments& args, CommandIo& io) {
    io::TraceDocument doc;
    if (args.positionals.empty()) {
        doc.name = "Default scenario: the boundary burst";
        doc.trace = default_trace();
        doc.params = default_params();
    } else {
        doc = io::load_trace(args.positionals[0]);
    }
    apply_lane_options(args, doc.params);
    set_tick_ms(doc.params, doc.tick_ms);
    const auto trace = std::make_shared<const Trace>(doc.trace);
    const auto result = simulate(trace, doc.params);

    std::string text = (doc.name.empty() ? std::string("Trace") : io::terminal_safe(doc.name)) +
                       ": L = " + std::to_string(doc.params.base.limit) +
                       " per W = " + ticks_text(doc.params.base.window) + ", " +
                       std::to_string(trace->requests.size()) + " requests\n\n";
    // With several keys, the burst summed over them is not held to any one key's L: each key
    // is judged against its own tier in a column of its own.
    const bool keyed = key_figures_need_decisions(*trace, result->params);
    Row header = {"algorithm", "accepted", "rejected",
                  keyed ? "worst burst, all keys" : "worst burst", "max delay"};
    if (keyed)
        header.push_back("worst key, against its own L");
    header.push_back("state after the last request");
    std::vector<Row> rows = {header};
    for (std::size_t lane = 0; lane < result->runs.size(); ++lane) {
        const AlgorithmRun& run = result->runs[lane];
        const Burst& burst = run.worst_burst;
        std::string state = "-";
        if (!trace->requests.empty()) {
            const Request& last = trace->requests.back();
            state = state_at(*result, lane, last.key, last.tick).summary;
            if (keyed)
                state = io::terminal_safe(key_label(trace->key_name(last.key))) + ": " + state;
        }
        // The default lanes go by their ids, as scripts read them; a chosen lane by its spec.
        const Lane& chosen = result->lanes[lane];
        const std::string name = chosen.params.empty() && chosen.label.empty()
                                     ? run.id
                                     : io::terminal_safe(io::lane_spec(chosen));
        Row row = {name, count_and_cost(run.totals.accepted, run.totals.accepted_cost),
                   count_and_cost(run.totals.rejected, run.totals.rejected_cost),
                   std::to_string(burst.cost) + " from tick " + burst.start.to_short(),
                   run.releases ? run.totals.max_delay.to_short() : "-"};
        if (keyed)
            row.push_back(worst_key_text(*trace, key_figures(*result, lane)));
        row.push_back(state);
        rows.push_back(std::move(row));
    }
    std::vector<bool> right = {false, true, true, false, true, false};
    if (keyed)
        right.push_back(false);
    text += render_table(rows, right);
    write_output(args, text, io);
    return kExitOk;
}

}  // namespace

Command make_compare_command() {
    return {"compare",
            "print a comparison table of all algorithms over a trace",
            "compare [TRACE.json] [options]",
            "Without a trace, compares the built-in default scenario (L = 4, W = 10, one\n"
            "request at each of ticks 6 to 13). The worst burst is the largest accepted cost\n"
            "inside any W ticks; the leaky bucket's is measured on its releases.",
            with_lane_options({output_option("the table")}),
            0,
            1,
            false,
            run_compare};
}

}  // namespace ratelab::cli
