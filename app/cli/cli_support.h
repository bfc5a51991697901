#pragma once

#include <string>
#include <vector>

#include "command.h"
#include "ratelab/io/file_output.h"
#include "ratelab/model.h"

namespace ratelab::cli {

/// The `-o FILE` option every writing command shares.
OptionSpec output_option(const std::string& what);
/// Writes `text` to the --output file as io::write_file does (a regular file whole or not at
/// all, a device or a FIFO written through), or to stdout when there is none or it is "-".
/// Throws io::FileWriteError.
void write_output(const Arguments& args, const std::string& text, CommandIo& io);
/// write_output() for output made while it is written (a report of millions of decisions).
void write_output(const Arguments& args, CommandIo& io, const io::Content& content);
/// --lane SPEC (repeatable) and --algorithms ID,..., which every simulating command takes.
std::vector<OptionSpec> lane_options();
/// `options` followed by lane_options().
std::vector<OptionSpec> with_lane_options(std::vector<OptionSpec> options);
/// Sets `params.lanes` from --lane (in the order given) or --algorithms (default lanes of those
/// ids); leaves the trace's lanes without either. Throws UsageError naming the lane at fault.
void apply_lane_options(const Arguments& args, Params& params);
/// "a,b,,c" -> {"a", "b", "c"}.
std::vector<std::string> split_list(const std::string& text, char separator = ',');

}  // namespace ratelab::cli
