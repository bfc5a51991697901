#include "cli_support.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <ostream>

#include <unistd.h>

namespace ratelab::cli {

OptionSpec output_option(const std::string& what) {
    return {"output", "FILE", "write " + what + " to FILE instead of standard output"};
}

void write_output(const Arguments& args, const std::string& text, CommandIo& io) {
    const auto path = args.get("output");
    if (!path || *path == "-") {
        io.out << text;
        io.out.flush();
        return;
    }
    std::filesystem::path temp = *path;
    temp += ".writing-" + std::to_string(::getpid());
    {
        std::ofstream file(temp, std::ios::binary);
        file << text;
        file.flush();
        if (!file) {
            const std::string why = std::strerror(errno);
            std::error_code ignored;
            std::filesystem::remove(temp, ignored);
            throw std::runtime_error("cannot write " + *path + ": " + why);
        }
    }
    std::error_code error;
    std::filesystem::rename(temp, *path, error);
    if (error) {
        std::filesystem::remove(temp, error);
        throw std::runtime_error("cannot write " + *path + ": " + error.message());
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
