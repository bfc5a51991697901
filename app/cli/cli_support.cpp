#include "cli_support.h"

#include <ostream>

#include "ratelab/io/file_output.h"
#include "ratelab/io/lane_spec.h"

namespace ratelab::cli {

OptionSpec output_option(const std::string& what) {
    return {"output", "FILE", "write " + what + " to FILE instead of standard output"};
}

void write_output(const Arguments& args, const std::string& text, CommandIo& io) {
    write_output(args, io, [&text](std::ostream& out) { out << text; });
}

void write_output(const Arguments& args, CommandIo& io, const io::Content& content) {
    const auto path = args.get("output");
    if (!path || *path == "-") {
        content(io.out);
        io.out.flush();
        if (!io.out) {
            throw io::FileWriteError("standard output", "the output could not be written");
        }
        return;
    }
    io::write_file(*path, content);
}

std::vector<OptionSpec> lane_options() {
    return {{"lane", "SPEC",
             "compare this lane: ID[:NAME=VALUE,...], e.g. token_bucket:capacity=8 "
             "(repeat for more lanes; see 'ratelab-cli algorithms')"},
            {"algorithms", "ID,...", "shorthand for --lane ID for each id, in this order"}};
}

std::vector<OptionSpec> with_lane_options(std::vector<OptionSpec> options) {
    for (OptionSpec& option : lane_options()) {
        options.push_back(std::move(option));
    }
    return options;
}

void apply_lane_options(const Arguments& args, Params& params) {
    const std::vector<std::string> specs = args.all("lane");
    if (args.has("algorithms") && !specs.empty()) {
        throw UsageError("give --lane or --algorithms, not both");
    }
    if (const auto list = args.get("algorithms")) {
        const std::vector<std::string> ids = split_list(*list);
        if (ids.empty()) {
            throw UsageError("--algorithms needs at least one algorithm id");
        }
        try {
            params.lanes = io::parse_lane_specs(ids);
        } catch (const io::LaneSpecError& error) {
            throw UsageError(std::string("--algorithms: ") + error.what());
        }
        return;
    }
    if (specs.empty()) {
        return;
    }
    try {
        params.lanes = io::parse_lane_specs(specs);
    } catch (const io::LaneSpecError& error) {
        throw UsageError(std::string("--lane: ") + error.what());
    }
}

std::vector<std::string> split_list(const std::string& text, char separator) {
    std::vector<std::string> items;
    std::size_t start = 0;
    while (start <= text.size()) {
        const std::size_t end = std::min(text.find(separator, start), text.size());
        if (end > start) {
            items.push_back(text.substr(start, end - start));
        }
        start = end + 1;
    }
    return items;
}

}  // namespace ratelab::cli
