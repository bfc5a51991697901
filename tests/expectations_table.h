#pragma once
// The expectations table beside a folder of malformed inputs: one line a file, tab-separated
// `file  rule  location`, lines starting with '#' ignored. Shared by every corpus test.
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

namespace ratelab::test {

struct ExpectedError {
    std::string rule;
    std::string location;
};

inline std::map<std::string, ExpectedError> read_expectations(const std::filesystem::path& tsv) {
    std::map<std::string, ExpectedError> expected;
    std::ifstream in(tsv);
    std::string line;
    while (std::getline(in, line)) {
        if (line.empty() || line[0] == '#')
            continue;
        std::istringstream fields(line);
        std::string file, rule, location;
        std::getline(fields, file, '\t');
        std::getline(fields, rule, '\t');
        std::getline(fields, location, '\t');
        expected[file] = {rule, location};
    }
    return expected;
}

}  // namespace ratelab::test
