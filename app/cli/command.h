#pragma once

#include <functional>
#include <iosfwd>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace ratelab::cli {

/// Bad command-line input: printed as one line, exit status 2.
class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// Exit statuses of ratelab-cli.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFailure = 1;   ///< something outside the input failed, e.g. writing
inline constexpr int kExitBadInput = 2;  ///< bad arguments or an invalid file

struct OptionSpec {
    std::string name;        ///< without dashes, e.g. "limit"
    std::string value_name;  ///< e.g. "L"; empty for a flag
    std::string help;
};

/// The command line after the command name, checked against the command's options.
class Arguments {
public:
    std::vector<std::string> positionals;
    /// Options as given (a flag maps to ""); the last value of a repeated option.
    std::map<std::string, std::string> options;
    /// Every value of each option, in the order of the command line (for repeatable options
    /// such as --lane).
    std::map<std::string, std::vector<std::string>> repeated;

    bool has(const std::string& name) const { return options.count(name) != 0; }
    std::optional<std::string> get(const std::string& name) const;
    /// Every value given for `name`, in order; empty when it is not given.
    std::vector<std::string> all(const std::string& name) const;
    /// A whole number in [min, max]; throws UsageError naming the option.
    std::optional<std::int64_t> integer(const std::string& name, std::int64_t min,
                                        std::int64_t max) const;
};

struct CommandIo {
    std::ostream& out;
    std::ostream& err;
};

/// One subcommand: its help and what it runs. Each lives in its own *_command.cpp.
struct Command {
    std::string name;
    std::string summary;  ///< one line for `ratelab-cli --help`
    std::string usage;    ///< e.g. "simulate TRACE.json [options]"
    std::string details;  ///< paragraphs after the usage line, may be empty
    std::vector<OptionSpec> options;
    std::size_t min_positionals = 0;
    std::size_t max_positionals = 0;
    /// Options not in `options` are accepted too (generate's pattern parameters).
    bool open_options = false;
    std::function<int(const Arguments&, CommandIo&)> run;
};

/// Every command, in the order `--help` lists them (command_table.cpp).
const std::vector<Command>& commands();

/// Parses `args` for `command`; throws UsageError.
Arguments parse_arguments(const Command& command, const std::vector<std::string>& args);
/// The text of `ratelab-cli COMMAND --help`.
std::string command_help(const Command& command);

}  // namespace ratelab::cli
