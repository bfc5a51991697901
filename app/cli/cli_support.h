#pragma once

#include <string>
#include <vector>

#include "command.h"

namespace ratelab::cli {

/// The `-o FILE` option every writing command shares.
OptionSpec output_option(const std::string& what);
/// Writes `text` to the --output file as io::write_file does (a regular file whole or not at
/// all, a device or a FIFO written through), or to stdout when there is none or it is "-".
/// Throws io::FileWriteError.
void write_output(const Arguments& args, const std::string& text, CommandIo& io);
/// "a,b,,c" -> {"a", "b", "c"}.
std::vector<std::string> split_list(const std::string& text, char separator = ',');

}  // namespace ratelab::cli
