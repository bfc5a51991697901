#pragma once

#include <filesystem>
#include <string>

/// What one run of ratelab-cli produced.
struct CliRun {
    int status = -1;
    std::string out;
    std::string err;
};

/// Runs the built ratelab-cli with `args` (a shell-quoted argument string) and no input.
CliRun run_cli(const std::string& args);
/// A fresh, empty folder for one test.
std::filesystem::path cli_scratch_dir(const std::string& name);
std::string read_file(const std::filesystem::path& file);
void write_file(const std::filesystem::path& file, const std::string& text);
