// ratelab-cli: the headless face of RateLab. Each subcommand lives in its own *_command.cpp.
#include <iostream>
#include <new>

#include "command.h"
#include "huge_page_malloc.h"
#include "ratelab/io/file_output.h"
#include "ratelab/io/terminal_text.h"
#include "ratelab/io/trace_file.h"
#include "ratelab/simulation.h"
#include "ratelab_version.h"

namespace {

using namespace ratelab::cli;

void print_program_help(std::ostream& out) {
    out << "Usage: ratelab-cli COMMAND [options]\n\n"
           "Simulates rate-limiting algorithms over request traces.\n\nCommands:\n";
    for (const Command& command : commands()) {
        std::string name = "  " + command.name;
        name.resize(14, ' ');
        out << name << command.summary << "\n";
    }
    out << "\n'ratelab-cli COMMAND --help' describes a command's options.\n"
           "  --help        show this help\n  --version     show the version\n";
}

int run_command(const Command& command, const std::vector<std::string>& args) {
    CommandIo io{std::cout, std::cerr};
    for (const std::string& arg : args) {
        if (arg == "--help" || arg == "-h") {
            std::cout << command_help(command);
            return kExitOk;
        }
    }
    Arguments parsed;
    try {
        parsed = parse_arguments(command, args);
        return command.run(parsed, io);
    } catch (const UsageError& error) {
        std::cerr << "ratelab-cli " << command.name << ": "
                  << ratelab::io::terminal_safe(error.what()) << "\n";
    } catch (const ratelab::io::TraceFileError& error) {
        std::cerr << "ratelab-cli " << command.name << ": "
                  << ratelab::io::terminal_safe(error.what()) << "\n";
    } catch (const ratelab::SimulationError& error) {
        std::cerr << "ratelab-cli " << command.name << ": "
                  << ratelab::io::terminal_safe(error.what()) << "\n";
    } catch (const ratelab::io::FileWriteError& error) {
        std::cerr << "ratelab-cli " << command.name << ": "
                  << ratelab::io::terminal_safe(error.what()) << " (write-failed)\n";
        return kExitFailure;
    } catch (const std::bad_alloc&) {
        std::cerr << "ratelab-cli " << command.name << ": "
                  << (parsed.positionals.empty()
                          ? std::string()
                          : ratelab::io::terminal_safe(parsed.positionals.front()) + ": ")
                  << "not enough memory to finish this command (out-of-memory)\n";
        return kExitFailure;
    } catch (const std::exception& error) {
        std::cerr << "ratelab-cli " << command.name << ": "
                  << ratelab::io::terminal_safe(error.what()) << "\n";
        return kExitFailure;
    }
    return kExitBadInput;
}

}  // namespace

int main(int argc, char** argv) {
    // A large trace or log: in fewer, larger pages. A small one is not worth loading twice.
    constexpr std::uintmax_t kLargeInput = std::uintmax_t{4} << 20;  // bytes
    if (ratelab::app::namesFileOfAtLeast(argv, kLargeInput))
        ratelab::app::restartWithHugePageMalloc(argv);
    const std::vector<std::string> args(argv + 1, argv + argc);
    if (args.empty() || args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
        print_program_help(args.empty() ? std::cerr : std::cout);
        return args.empty() ? kExitBadInput : kExitOk;
    }
    if (args[0] == "--version") {
        std::cout << "ratelab-cli " << RATELAB_VERSION << "\n";
        return kExitOk;
    }
    for (const Command& command : commands()) {
        if (command.name == args[0]) {
            return run_command(command, {args.begin() + 1, args.end()});
        }
    }
    std::cerr << "ratelab-cli: unknown command \"" << ratelab::io::terminal_safe(args[0])
              << "\" (see ratelab-cli --help)\n";
    return kExitBadInput;
}
