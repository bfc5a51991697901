// ratelab-cli validate: checks trace files and prints what each holds, or why it is invalid.
#include <algorithm>
#include <ostream>

#include "cli_support.h"
#include "ratelab/io/terminal_text.h"
#include "ratelab/io/trace_file.h"
#include "ratelab/tick_text.h"

namespace ratelab::cli {

namespace {

std::string summary_of(const io::TraceDocument& doc) {
    const auto& requests = doc.trace.requests;
    std::int64_t cost = 0;
    std::vector<bool> used(doc.trace.keys.size(), false);
    for (const Request& request : requests) {
        cost += request.cost;
        used[request.key] = true;
    }
    const auto keys = std::count(used.begin(), used.end(), true);
    std::string text = (doc.name.empty() ? std::string("(unnamed)") : "\"" + doc.name + "\"") +
                       ": " + std::to_string(requests.size()) + " requests";
    if (cost != static_cast<std::int64_t>(requests.size())) {
        text += " (total cost " + std::to_string(cost) + ")";
    }
    text += ", " + std::to_string(keys) + (keys == 1 ? " key" : " keys");
    if (!requests.empty()) {
        text += ", ticks " + std::to_string(requests.front().tick) + " to " +
                std::to_string(requests.back().tick);
    }
    text += "; L = " + std::to_string(doc.params.base.limit) +
            ", W = " + std::to_string(doc.params.base.window) + ", timeline " +
            ticks_text(io::effective_duration(doc)) + " of " + std::to_string(doc.tick_ms) + " ms";
    if (!doc.params.keys.empty()) {
        text += ", " + std::to_string(doc.params.keys.size()) + " key tiers";
    }
    return text;
}

int run_validate(const Arguments& args, CommandIo& io) {
    int status = kExitOk;
    for (const std::string& file : args.positionals) {
        try {
            const io::TraceDocument doc = io::load_trace(file);
            // Names and file names come from outside: never let them drive the terminal.
            io.out << io::terminal_safe(file) << ": ok: " << io::terminal_safe(summary_of(doc))
                   << "\n";
            for (const std::string& warning : doc.warnings) {
                io.err << io::terminal_safe(file) << ": warning: " << io::terminal_safe(warning)
                       << "\n";
            }
        } catch (const io::TraceFileError& error) {
            io.err << io::terminal_safe(error.what()) << "\n";
            status = kExitBadInput;
        }
    }
    return status;
}

}  // namespace

Command make_validate_command() {
    return {"validate",
            "check trace files and summarise them",
            "validate TRACE.json [TRACE.json ...]",
            "Prints one line per valid file, and for an invalid one the file, the place\n"
            "(a JSON path or line:column) and the rule broken. Exit status 2 if any is invalid.",
            {},
            1,
            static_cast<std::size_t>(-1),
            false,
            run_validate};
}

}  // namespace ratelab::cli
