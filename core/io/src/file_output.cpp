// Writing a whole file so that a full disk, a read-only file or a special file never costs the
// user what was there before. POSIX calls throughout: every error of write(), fsync() and
// close() is seen, where buffered streams report a failed flush late or not at all.
#include "ratelab/io/file_output.h"

#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <ostream>
#include <sstream>
#include <streambuf>
#include <utility>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace ratelab::io {

namespace fs = std::filesystem;

FileWriteError::FileWriteError(std::string file, std::string reason)
    : std::runtime_error("cannot write " + file + ": " + reason),
      file_(std::move(file)),
      reason_(std::move(reason)) {}

namespace {

/// Closes a descriptor once, reporting whether the close succeeded.
class Descriptor {
public:
    explicit Descriptor(int fd) : fd_(fd) {}
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    ~Descriptor() {
        if (fd_ >= 0) {
            ::close(fd_);
        }
    }
    int get() const { return fd_; }
    /// Closes now; false (with errno set) if the system reports a deferred write error.
    bool close() { return ::close(std::exchange(fd_, -1)) == 0; }

private:
    int fd_;
};

[[noreturn]] void fail(const fs::path& file, int error_number) {
    throw FileWriteError(file.string(), std::strerror(error_number));
}

/// Writes every byte at the descriptor's offset; false (errno set) on any failure.
bool write_all(int fd, std::string_view bytes) {
    while (!bytes.empty()) {
        const ssize_t written = ::write(fd, bytes.data(), bytes.size());
        if (written < 0) {
            if (errno == EINTR) {
                continue;
            }
            return false;
        }
        if (written == 0) {
            errno = EIO;
            return false;
        }
        bytes.remove_prefix(static_cast<std::size_t>(written));
    }
    return true;
}

/// An output stream onto a descriptor that keeps the first error: each failed write() sets
/// badbit, and error() tells why.
class DescriptorBuffer : public std::streambuf {
public:
    explicit DescriptorBuffer(int fd) : fd_(fd) {
        setp(buffer_.data(), buffer_.data() + buffer_.size());
    }
    int error() const { return error_; }

protected:
    int_type overflow(int_type c) override {
        if (!drain()) {
            return traits_type::eof();
        }
        if (!traits_type::eq_int_type(c, traits_type::eof())) {
            *pptr() = traits_type::to_char_type(c);
            pbump(1);
        }
        return traits_type::not_eof(c);
    }
    int sync() override { return drain() ? 0 : -1; }

private:
    bool drain() {
        const std::string_view pending(pbase(), static_cast<std::size_t>(pptr() - pbase()));
        setp(buffer_.data(), buffer_.data() + buffer_.size());
        if (error_ == 0 && !write_all(fd_, pending)) {
            error_ = errno;
        }
        return error_ == 0;
    }

    int fd_;
    int error_ = 0;
    std::array<char, 1 << 16> buffer_;
};

/// Writes `content` to `fd`; false (errno set) if any write failed.
bool write_content(int fd, const Content& content) {
    DescriptorBuffer buffer(fd);
    std::ostream out(&buffer);
    content(out);
    out.flush();
    if (buffer.error() != 0) {
        errno = buffer.error();
        return false;
    }
    if (!out) {
        errno = EIO;
        return false;
    }
    return true;
}

/// Flushes a regular file's data; file systems that cannot sync (EINVAL) are taken as done.
bool sync(int fd) {
    return ::fsync(fd) == 0 || errno == EINVAL;
}

/// Devices and pseudo-files: whatever they resolve to, they are written the way a shell's `>`
/// writes them, never replaced.
bool names_a_device(const fs::path& path) {
    const std::string text = path.lexically_normal().string();
    return text.rfind("/dev/", 0) == 0 || text.rfind("/proc/", 0) == 0;
}

void write_through(const fs::path& path, const Content& content) {
    Descriptor out(::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0666));
    if (out.get() < 0) {
        fail(path, errno);
    }
    if (!write_content(out.get(), content) || !out.close()) {
        fail(path, errno);
    }
}

/// A regular file with other names: rewritten in place once its new size is reserved (which
/// needs the whole content first, held in memory for this rare case).
void rewrite_in_place(const fs::path& path, const Content& content, off_t old_size) {
    std::ostringstream whole;
    content(whole);
    const std::string text = std::move(whole).str();
    const std::string_view bytes = text;
    Descriptor out(::open(path.c_str(), O_WRONLY | O_CLOEXEC));
    if (out.get() < 0) {
        fail(path, errno);
    }
    const auto size = static_cast<off_t>(bytes.size());
    if (size > 0) {
        if (const int error = ::posix_fallocate(out.get(), 0, size); error != 0) {
            (void)::ftruncate(out.get(), old_size);  // undo any partial extension
            fail(path, error);
        }
    }
    if (!write_all(out.get(), bytes) || ::ftruncate(out.get(), size) != 0 || !sync(out.get()) ||
        !out.close()) {
        fail(path, errno);
    }
}

fs::path temporary_beside(const fs::path& file) {
    static std::atomic<unsigned> counter{0};
    fs::path temp = file.parent_path();
    // Hidden, and not ending in the trace extension, so that no folder listing offers it.
    temp /= "." + file.filename().string() + ".tmp-" + std::to_string(::getpid()) + "-" +
            std::to_string(counter++);
    return temp;
}

/// Writes a new file, or replaces `file` (whose status is `existing`, if any) by rename.
void replace_by_rename(const fs::path& file, const Content& content, const struct stat* existing) {
    fs::path temp = temporary_beside(file);
    Descriptor out(::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                          existing != nullptr ? 0600 : 0666));
    if (out.get() < 0) {
        if (errno == EACCES && existing != nullptr) {
            // The folder is closed to new files but the file itself is writable.
            rewrite_in_place(file, content, existing->st_size);
            return;
        }
        fail(file, errno);
    }
    const auto discard = [&](int error_number) {
        ::unlink(temp.c_str());
        fail(file, error_number);
    };
    if (existing != nullptr) {
        // Owner first: a change of owner clears the set-id bits that fchmod then restores. Only
        // a privileged process may give a file away, so EPERM leaves the file ours.
        if ((existing->st_uid != ::geteuid() || existing->st_gid != ::getegid()) &&
            ::fchown(out.get(), existing->st_uid, existing->st_gid) != 0 && errno != EPERM) {
            discard(errno);
        }
        if (::fchmod(out.get(), existing->st_mode & 07777) != 0) {
            discard(errno);
        }
    }
    try {
        if (!write_content(out.get(), content) || !sync(out.get())) {
            discard(errno);
        }
    } catch (const FileWriteError&) {
        throw;
    } catch (...) {  // the content could not be made (out of memory, say): nothing is left
        ::unlink(temp.c_str());
        throw;
    }
    if (!out.close()) {
        discard(errno);
    }
    if (::rename(temp.c_str(), file.c_str()) != 0) {
        discard(errno);
    }
    // Make the rename itself durable; a folder that cannot be synced changes nothing above.
    const fs::path folder = file.has_parent_path() ? file.parent_path() : fs::path(".");
    Descriptor dir(::open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (dir.get() >= 0) {
        (void)::fsync(dir.get());
    }
}

/// Where a dangling symbolic link points, so that writing through it creates its target.
fs::path follow_dangling_links(const fs::path& path) {
    fs::path current = path;
    for (int hops = 0; hops < 40; ++hops) {
        struct stat info {};
        if (::lstat(current.c_str(), &info) != 0 || !S_ISLNK(info.st_mode)) {
            return current;
        }
        std::error_code error;
        const fs::path target = fs::read_symlink(current, error);
        if (error) {
            throw FileWriteError(path.string(), error.message());
        }
        current = target.is_absolute() ? target : current.parent_path() / target;
    }
    fail(path, ELOOP);
}

void write_to(const fs::path& path, const Content& bytes) {
    if (path.empty()) {
        fail(path, ENOENT);
    }
    if (names_a_device(path)) {
        write_through(path, bytes);
        return;
    }
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) {
        if (errno != ENOENT) {
            fail(path, errno);
        }
        replace_by_rename(follow_dangling_links(path), bytes, nullptr);
        return;
    }
    if (S_ISDIR(info.st_mode)) {
        fail(path, EISDIR);
    }
    if (!S_ISREG(info.st_mode)) {
        write_through(path, bytes);
        return;
    }
    if (::access(path.c_str(), W_OK) != 0) {
        fail(path, errno);
    }
    char resolved[PATH_MAX];
    if (::realpath(path.c_str(), resolved) == nullptr) {
        fail(path, errno);
    }
    if (info.st_nlink > 1) {
        rewrite_in_place(resolved, bytes, info.st_size);
        return;
    }
    replace_by_rename(resolved, bytes, &info);
}

}  // namespace

void write_file(const fs::path& path, std::string_view bytes) {
    write_file(path, [bytes](std::ostream& out) {
        out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    });
}

void write_file(const fs::path& path, const Content& content) {
    try {
        write_to(path, content);
    } catch (const FileWriteError& error) {
        if (error.file() == path.string()) {
            throw;
        }
        throw FileWriteError(path.string(), error.reason());  // the name the caller knows
    }
}

}  // namespace ratelab::io
