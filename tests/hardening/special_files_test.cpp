// Pipes, FIFOs and kernel files: what stat says about them (size 0, or no size at all) is not
// what they hold, so the loader reads them as streams, and never waits for a writer that may
// never come.
#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <future>
#include <string>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "catch.h"
#include "ratelab/io/importers.h"
#include "ratelab/io/trace_file.h"

namespace fs = std::filesystem;
using namespace ratelab::io;

namespace {

const char* const kTrace =
    R"({"format": "ratelab-trace", "version": 1, "limit": 2, "window": 5, "requests": [
  {"tick": 1}, {"tick": 3, "cost": 2}
]})";

struct Outcome {
    std::string rule;  ///< "loaded" when it loaded
    std::string location;
    bool had_to_unblock = false;
};

/// Runs `attempt` on a thread. If it has not returned after a long while, it is waiting for
/// input that will never come: `unblock` then ends that wait, so that the test fails instead of
/// hanging. The wait only ever runs out when reading blocks; how fast it reads is not checked.
template <class Attempt, class Unblock>
Outcome unless_blocked(Attempt attempt, Unblock unblock) {
    auto result = std::async(std::launch::async, attempt);
    bool had_to_unblock = false;
    if (result.wait_for(std::chrono::seconds(20)) == std::future_status::timeout) {
        had_to_unblock = true;
        unblock();
    }
    Outcome outcome = result.get();
    outcome.had_to_unblock = had_to_unblock;
    return outcome;
}

template <class Unblock>
Outcome load_unless_blocked(const fs::path& file, Unblock unblock) {
    return unless_blocked(
        [file] {
            try {
                load_trace(file);
            } catch (const TraceFileError& error) {
                return Outcome{error.rule(), error.location()};
            }
            return Outcome{"loaded", ""};
        },
        unblock);
}

/// A FIFO in a fresh folder, and what opens and closes it for writing, which lets a reader
/// blocked in open() go on.
struct Fifo {
    fs::path dir = fs::temp_directory_path() / ("ratelab-fifo-" + std::to_string(::getpid()));
    fs::path path = dir / "input";
    Fifo() {
        fs::create_directories(dir);
        REQUIRE(::mkfifo(path.c_str(), 0600) == 0);
    }
    ~Fifo() { fs::remove_all(dir); }
    void unblock() const {
        const int fd = ::open(path.c_str(), O_WRONLY | O_NONBLOCK);
        if (fd >= 0) {
            ::close(fd);
        }
    }
};

/// A pipe read through /dev/fd, as `ratelab-cli validate /dev/stdin` reads one. Its writer sends
/// `text` from a thread, then, if `endless`, zeros until the reader closes its end.
Outcome load_from_pipe(const std::string& text, bool endless = false) {
    int ends[2];
    REQUIRE(::pipe(ends) == 0);
    std::thread writer([&] {
        const auto send = [&](const char* data, std::size_t size) {
            for (std::size_t sent = 0; sent < size;) {
                const ssize_t n = ::write(ends[1], data + sent, size - sent);
                if (n <= 0) {
                    return false;  // the reader has closed its end
                }
                sent += static_cast<std::size_t>(n);
            }
            return true;
        };
        const std::string zeros(1 << 16, '0');
        for (bool open = send(text.data(), text.size()); open && endless;) {
            open = send(zeros.data(), zeros.size());
        }
        ::close(ends[1]);
    });
    const Outcome outcome = load_unless_blocked("/dev/fd/" + std::to_string(ends[0]), [] {});
    ::close(ends[0]);  // the last reader: an endless writer now fails with EPIPE and stops
    writer.join();
    return outcome;
}

}  // namespace

TEST_CASE("hardening/special files: a FIFO nobody writes to reads as empty instead of waiting") {
    const Fifo fifo;
    const Outcome outcome = load_unless_blocked(fifo.path, [&] { fifo.unblock(); });
    CHECK_FALSE(outcome.had_to_unblock);
    CHECK(outcome.rule == "file-empty");
}

TEST_CASE("hardening/special files: importing from a FIFO nobody writes to does not wait") {
    const Fifo fifo;
    const Outcome outcome = unless_blocked(
        [&] {
            try {
                import_file(fifo.path, {});
            } catch (const ImportError& error) {
                return Outcome{error.what(), ""};
            }
            return Outcome{"imported", ""};
        },
        [&] { fifo.unblock(); });
    CHECK_FALSE(outcome.had_to_unblock);
    CHECK(outcome.rule == "no line could be imported (the input is empty)");
}

TEST_CASE("hardening/special files: a kernel file whose size says 0 is read, not taken as empty") {
    // /proc reports a size of 0 for files that hold text; they used to load as "file-empty".
    const Outcome status = load_unless_blocked("/proc/self/status", [] {});
    CHECK(status.rule == "not-json");  // it starts "Name:"
    CHECK(status.location == "1:1");
    // sysfs reports 4096 for files that hold less; they used to fail as "file-unreadable".
    const fs::path sysfs = "/sys/kernel/mm/transparent_hugepage/enabled";
    if (fs::exists(sysfs)) {
        CHECK(load_unless_blocked(sysfs, [] {}).rule == "not-json");
    }
}

TEST_CASE("hardening/special files: blanks from a pipe over many chunks, then a trace, load") {
    // Each chunk used to rescan every blank before it. A byte order mark and every kind of
    // blank, over about 130 chunks of 64 KiB, and then the trace.
    std::string blanks = "\xEF\xBB\xBF";
    while (blanks.size() < (8u << 20)) {
        blanks += "  \t\r\n";
    }
    const std::size_t lines =
        static_cast<std::size_t>(std::count(blanks.begin(), blanks.end(), '\n'));
    CHECK(load_from_pipe(blanks + kTrace).rule == "loaded");
    // Positions in errors still count the blank lines: the error is on the trace's third line.
    std::string broken = kTrace;
    broken.replace(broken.find("]}"), 2, "]x}");
    const Outcome error = load_from_pipe(blanks + broken);
    CHECK(error.rule == "not-json");
    CHECK(error.location.rfind(std::to_string(lines + 3) + ":", 0) == 0);
}

TEST_CASE(
    "hardening/special files: a pipe that is not a trace after many blank chunks stops there") {
    // The first byte after the blanks cannot begin a trace, so the loader stops reading there
    // instead of reading an endless writer up to the size limit.
    std::signal(SIGPIPE, SIG_IGN);  // the writer learns from EPIPE that the reader has stopped
    const Outcome outcome = load_from_pipe(std::string(4u << 20, ' ') + "[", true);
    // "file-too-large" if it had read on to the size limit.
    CHECK(outcome.rule == "not-object");
    CHECK(outcome.location == "$");
}
