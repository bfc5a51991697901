// ratelab-cli generate: writes a trace made by one of the pattern generators.
#include <algorithm>
#include <limits>

#include "cli_support.h"
#include "ratelab/io/generators.h"

namespace ratelab::cli {

namespace {

const std::vector<std::string> kOwnOptions = {"seed", "name", "description", "output"};

std::string pattern_list() {
    std::string text = "Patterns and their parameters (defaults in brackets):\n";
    for (const io::PatternInfo& pattern : io::patterns()) {
        text += "\n  " + pattern.id + ": " + pattern.summary + "\n";
        for (const io::PatternParameter& parameter : pattern.parameters) {
            std::string left = "    --" + parameter.name + " [" + parameter.default_value + "]";
            left.resize(std::max<std::size_t>(left.size() + 2, 28), ' ');
            text += left + parameter.help + "\n";
        }
    }
    return text;
}

int run_generate(const Arguments& args, CommandIo& io) {
    std::map<std::string, std::string> values;
    for (const auto& [name, value] : args.options) {
        if (std::find(kOwnOptions.begin(), kOwnOptions.end(), name) == kOwnOptions.end()) {
            values[name] = value;
        }
    }
    const auto seed = args.integer("seed", 0, std::numeric_limits<std::int64_t>::max());
    io::TraceDocument doc;
    try {
        doc = io::generate_pattern(args.positionals[0], values,
                                   static_cast<std::uint64_t>(seed.value_or(1)));
    } catch (const io::GeneratorError& error) {
        throw UsageError(error.what());
    }
    if (auto name = args.get("name")) {
        doc.name = *name;
    }
    if (auto description = args.get("description")) {
        doc.description = *description;
    }
    write_output(args, io::serialize_trace(doc), io);
    return kExitOk;
}

}  // namespace

Command make_generate_command() {
    return {"generate",
            "write a trace from a traffic pattern",
            "generate PATTERN [--PARAMETER VALUE ...] [--seed N] [-o OUT.json]",
            pattern_list(),
            {{"seed", "N", "seed of the random patterns (default 1); same seed, same trace"},
             {"name", "TEXT", "the trace's name"},
             {"description", "TEXT", "the trace's description"},
             output_option("the trace")},
            1,
            1,
            true,
            run_generate};
}

}  // namespace ratelab::cli
