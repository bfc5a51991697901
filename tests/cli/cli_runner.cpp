#include "cli_runner.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

std::string read_file(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void write_file(const fs::path& file, const std::string& text) {
    std::ofstream(file, std::ios::binary) << text;
}

fs::path cli_scratch_dir(const std::string& name) {
    const fs::path dir =
        fs::temp_directory_path() / ("ratelab-cli-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    fs::create_directories(dir);
    return dir;
}

CliRun run_cli(const std::string& args) {
    static int counter = 0;
    const fs::path dir = fs::temp_directory_path();
    const std::string stem =
        "ratelab-cli-run-" + std::to_string(::getpid()) + "-" + std::to_string(++counter);
    const fs::path out = dir / (stem + ".out");
    const fs::path err = dir / (stem + ".err");
    const std::string command = std::string("\"") + RATELAB_CLI + "\" " + args + " </dev/null >\"" +
                                out.string() + "\" 2>\"" + err.string() + "\"";
    const int raw = std::system(command.c_str());
    CliRun run;
    run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    run.out = read_file(out);
    run.err = read_file(err);
    fs::remove(out);
    fs::remove(err);
    return run;
}
