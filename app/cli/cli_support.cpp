#include "cli_support.h"

#include <ostream>

#include "ratelab/io/file_output.h"

namespace ratelab::cli {

OptionSpec output_option(const std::string& what) {
    return {"output", "FILE", "write " + what + " to FILE instead of standard output"};
}

void write_output(const Arguments& args, const std::string& text, CommandIo& io) {
    const auto path = args.get("output");
    if (!path || *path == "-") {
        io.out << text;
        io.out.flush();
        if (!io.out) {
            throw io::FileWriteError("standard output", "the output could not be written");
        }
        return;
    }
    io::write_file(*path, text);
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
