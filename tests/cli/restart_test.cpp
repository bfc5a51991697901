// The apps restart once at start-up with glibc asked for huge pages (app/common): only once, the
// user's own tunables kept, an explicit choice respected, and nothing left behind for children;
// ratelab-cli only when an argument names a large file.
#include <algorithm>
#include <cstdio>
#include <string>

#include "catch.h"
#include "cli_runner.h"
#include "huge_page_malloc.h"

namespace {

struct ProbeRun {
    std::string seen;  ///< GLIBC_TUNABLES|marker state, as the restarted process printed them
    long starts = 0;   ///< how many times main() began
};

/// Runs the probe under `env` (arguments to env(1), which starts from a clean environment).
ProbeRun run_probe(const std::string& env, const std::string& name) {
    const auto dir = cli_scratch_dir("restart-" + name);
    const auto starts = dir / "starts";
    const std::string command =
        "env -i " + env + " \"" + RATELAB_RESTART_PROBE + "\" \"" + starts.string() + "\"";
    ProbeRun run;
    if (FILE* pipe = popen(command.c_str(), "r")) {
        char line[512];
        while (std::fgets(line, sizeof line, pipe) != nullptr)
            run.seen += line;
        pclose(pipe);
    }
    const std::string log = read_file(starts);
    run.starts = std::count(log.begin(), log.end(), '\n');
    std::filesystem::remove_all(dir);
    return run;
}

}  // namespace

TEST_CASE("a program restarts once with huge pages asked of malloc", "[restart]") {
    const ProbeRun run = run_probe("", "plain");
    CHECK(run.starts == 2);
    CHECK(run.seen == "glibc.malloc.hugetlb=1|clean\n");
}

TEST_CASE("the restart keeps the user's other glibc tunables", "[restart]") {
    const ProbeRun run = run_probe("GLIBC_TUNABLES=glibc.malloc.tcache_count=7", "others");
    CHECK(run.starts == 2);
    CHECK(run.seen == "glibc.malloc.tcache_count=7:glibc.malloc.hugetlb=1|clean\n");
}

TEST_CASE("an explicit hugetlb setting turns the restart off", "[restart]") {
    const ProbeRun run = run_probe("GLIBC_TUNABLES=glibc.malloc.hugetlb=0", "off");
    CHECK(run.starts == 1);
    CHECK(run.seen == "glibc.malloc.hugetlb=0|clean\n");
}

TEST_CASE("ratelab-cli restarts only for an input large enough to repay it", "[restart]") {
    const auto dir = cli_scratch_dir("restart-sizes");
    const auto five = dir / "five-bytes";
    write_file(five, "12345");
    std::string program = "ratelab-cli";
    std::string path = five.string();
    std::string missing = (dir / "missing").string();
    std::string folder = dir.string();
    const auto names = [&](std::string& argument, std::uintmax_t bytes) {
        char* argv[] = {program.data(), argument.data(), nullptr};
        return ratelab::app::namesFileOfAtLeast(argv, bytes);
    };
    CHECK(names(path, 5));
    CHECK_FALSE(names(path, 6));
    CHECK_FALSE(names(missing, 0));
    CHECK_FALSE(names(folder, 0));  // a folder is not an input file
    char* only_program[] = {program.data(), nullptr};
    CHECK_FALSE(ratelab::app::namesFileOfAtLeast(only_program, 0));
    std::filesystem::remove_all(dir);
}
