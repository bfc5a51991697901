// io::write_file: a file holds all of the new bytes or keeps the old ones, whatever the disk,
// and what a path names (a link, a device, a pipe, a file with other names) stays what it was.
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "catch.h"
#include "full_disk.h"
#include "ratelab/io/file_output.h"
#include "ratelab/io/trace_file.h"

namespace fs = std::filesystem;
using ratelab::io::FileWriteError;
using ratelab::io::write_file;

namespace {

struct ScratchFolder {
    fs::path path =
        fs::temp_directory_path() / ("ratelab-output-" + std::to_string(::getpid()) + "-" +
                                     std::to_string(reinterpret_cast<std::uintptr_t>(this)));
    ScratchFolder() { fs::create_directories(path); }
    ~ScratchFolder() {
        std::error_code ignored;
        fs::remove_all(path, ignored);
    }
    std::size_t entries() const {
        return static_cast<std::size_t>(
            std::distance(fs::directory_iterator(path), fs::directory_iterator()));
    }
};

std::string read_text(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

void put(const fs::path& file, const std::string& text) {
    std::ofstream(file, std::ios::binary) << text;
}

struct stat status_of(const fs::path& file) {
    struct stat info {};
    REQUIRE(::lstat(file.c_str(), &info) == 0);
    return info;
}

}  // namespace

TEST_CASE("io/write_file: a full disk leaves the old file whole and says so") {
    ScratchFolder dir;
    const fs::path file = dir.path / "trace.json";
    const std::string old_text(3000, 'o');
    put(file, old_text);
    const std::string new_text(20000, 'n');  // past any stream buffer, as a real trace is
    {
        ratelab::test::FullDiskAfter full(4096);
        try {
            write_file(file, new_text);
            FAIL("a write past the end of the disk was reported as done");
        } catch (const FileWriteError& error) {
            CHECK(error.file() == file.string());
            CHECK(error.reason() == std::strerror(EFBIG));
            CHECK(std::string(error.what()) ==
                  "cannot write " + file.string() + ": " + std::strerror(EFBIG));
        }
    }
    CHECK(read_text(file) == old_text);
    CHECK(dir.entries() == 1);  // no temporary file left behind
}

TEST_CASE("io/write_file: a full disk never leaves a new file behind") {
    ScratchFolder dir;
    const fs::path file = dir.path / "new.json";
    {
        ratelab::test::FullDiskAfter full(100);
        CHECK_THROWS_AS(write_file(file, std::string(5000, 'x')), FileWriteError);
    }
    CHECK(!fs::exists(file));
    CHECK(dir.entries() == 0);
}

TEST_CASE("io/save_trace: a full disk is rule write-failed and the old trace stays") {
    ScratchFolder dir;
    const fs::path file = dir.path / "trace.json";
    ratelab::io::TraceDocument doc;
    doc.name = "Big enough";
    ratelab::TraceBuilder builder;
    for (int i = 0; i < 2000; ++i) {
        builder.add(i, 1, "key-" + std::to_string(i % 7));
    }
    doc.trace = std::move(builder).take();
    put(file, "{}");
    {
        ratelab::test::FullDiskAfter full(8192);
        try {
            ratelab::io::save_trace(doc, file);
            FAIL("saved");
        } catch (const ratelab::io::TraceFileError& error) {
            CHECK(error.rule() == "write-failed");
            CHECK(error.detail() == std::strerror(EFBIG));
        }
    }
    CHECK(read_text(file) == "{}");
}

TEST_CASE("io/write_file: a replaced file keeps its permission bits") {
    ScratchFolder dir;
    const fs::path file = dir.path / "private.json";
    put(file, "old");
    REQUIRE(::chmod(file.c_str(), 0640) == 0);
    write_file(file, "new");
    CHECK(read_text(file) == "new");
    CHECK((status_of(file).st_mode & 07777) == 0640);
}

TEST_CASE("io/write_file: a replaced file keeps its owner where the process may set it") {
    if (::geteuid() != 0) {
        WARN("not root: a file of another owner cannot be made here");
        return;
    }
    ScratchFolder dir;
    const fs::path file = dir.path / "theirs.json";
    put(file, "old");
    REQUIRE(::chown(file.c_str(), 4321, 8765) == 0);
    write_file(file, "new");
    CHECK(read_text(file) == "new");
    CHECK(status_of(file).st_uid == 4321);
    CHECK(status_of(file).st_gid == 8765);
}

TEST_CASE("io/write_file: a new file gets the usual permissions, not the temporary file's") {
    ScratchFolder dir;
    const fs::path file = dir.path / "fresh.json";
    const mode_t mask = ::umask(022);
    write_file(file, "new");
    ::umask(mask);
    CHECK((status_of(file).st_mode & 0777) == 0644);
}

TEST_CASE("io/write_file: every hard link of a file sees the new content") {
    ScratchFolder dir;
    const fs::path file = dir.path / "one.json";
    const fs::path other = dir.path / "other-name.json";
    put(file, "a longer old content than the new one");
    fs::create_hard_link(file, other);
    write_file(file, "new");
    CHECK(read_text(other) == "new");
    CHECK(status_of(file).st_ino == status_of(other).st_ino);
    CHECK(status_of(file).st_nlink == 2);
}

TEST_CASE("io/write_file: a full disk leaves a hard-linked file as it was") {
    ScratchFolder dir;
    const fs::path file = dir.path / "one.json";
    put(file, "old");
    fs::create_hard_link(file, dir.path / "other.json");
    {
        ratelab::test::FullDiskAfter full(1000);
        CHECK_THROWS_AS(write_file(file, std::string(5000, 'n')), FileWriteError);
    }
    CHECK(read_text(file) == "old");
    CHECK(fs::file_size(file) == 3);
}

TEST_CASE("io/write_file: a symbolic link stays a link and its target is written") {
    ScratchFolder dir;
    fs::create_directories(dir.path / "real");
    const fs::path target = dir.path / "real" / "trace.json";
    const fs::path link = dir.path / "link.json";
    put(target, "old");
    fs::create_symlink("real/trace.json", link);
    write_file(link, "new");
    CHECK(fs::is_symlink(fs::symlink_status(link)));
    CHECK(fs::read_symlink(link) == "real/trace.json");
    CHECK(read_text(target) == "new");
}

TEST_CASE("io/write_file: a dangling symbolic link creates its target") {
    ScratchFolder dir;
    const fs::path link = dir.path / "link.json";
    fs::create_symlink("made-by-write.json", link);
    write_file(link, "new");
    CHECK(fs::is_symlink(fs::symlink_status(link)));
    CHECK(read_text(dir.path / "made-by-write.json") == "new");
}

TEST_CASE("io/write_file: a FIFO is written through and stays a FIFO") {
    ScratchFolder dir;
    const fs::path fifo = dir.path / "pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::string received;
    std::thread reader([&] { received = read_text(fifo); });
    write_file(fifo, "through the pipe");
    reader.join();
    CHECK(received == "through the pipe");
    CHECK(S_ISFIFO(status_of(fifo).st_mode));
}

TEST_CASE("io/write_file: a device is written through, never replaced") {
    ScratchFolder dir;
    const fs::path device = dir.path / "null";
    if (::mknod(device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0) {
        WARN("cannot make a device node here: " << std::strerror(errno));
        return;
    }
    write_file(device, "into nothing");
    CHECK(S_ISCHR(status_of(device).st_mode));
    CHECK(dir.entries() == 1);
}

TEST_CASE("io/write_file: a folder is refused with its name") {
    ScratchFolder dir;
    try {
        write_file(dir.path, "text");
        FAIL("wrote a folder");
    } catch (const FileWriteError& error) {
        CHECK(error.reason() == std::strerror(EISDIR));
    }
    CHECK(fs::is_directory(dir.path));
}

TEST_CASE("io/write_file: a file in a missing folder gives the system's reason") {
    ScratchFolder dir;
    try {
        write_file(dir.path / "no-such-folder" / "file.json", "text");
        FAIL("wrote into a missing folder");
    } catch (const FileWriteError& error) {
        CHECK(error.reason() == std::strerror(ENOENT));
    }
}
