#include "input_file.h"

#include <cerrno>
#include <system_error>

#include <fcntl.h>
#include <unistd.h>

namespace ratelab::io::detail {

InputFile::InputFile(const std::filesystem::path& file) {
    // O_NONBLOCK only for open() itself: on a FIFO without a writer it returns at once. Cleared
    // again, so that reads wait for a writer that has the FIFO open; with none, a read is the end.
    fd_ = ::open(file.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd_ < 0) {
        return;
    }
    const int flags = ::fcntl(fd_, F_GETFL);
    if (flags < 0 || ::fcntl(fd_, F_SETFL, flags & ~O_NONBLOCK) < 0) {
        const int saved = errno;
        ::close(fd_);
        fd_ = -1;
        errno = saved;
    }
}

InputFile::~InputFile() {
    if (fd_ >= 0) {
        ::close(fd_);
    }
}

std::size_t InputFile::read_some(char* buffer, std::size_t size) {
    ssize_t n = 0;
    do {
        n = ::read(fd_, buffer, size);
    } while (n < 0 && errno == EINTR);
    if (n < 0) {
        throw std::system_error(errno, std::generic_category());
    }
    return static_cast<std::size_t>(n);
}

InputFile::int_type InputFile::underflow() {
    // Thrown from here, a failed read sets the istream's badbit.
    const std::size_t n = read_some(buffer_, sizeof buffer_);
    if (n == 0) {
        return traits_type::eof();
    }
    setg(buffer_, buffer_, buffer_ + n);
    return traits_type::to_int_type(buffer_[0]);
}

}  // namespace ratelab::io::detail
