#pragma once

#include <filesystem>
#include <streambuf>

namespace ratelab::io::detail {

/// A file, pipe or device opened for reading without waiting in open(): a FIFO that no program
/// has open for writing reads as empty instead of blocking until one comes (forever, in the
/// worst case, and on the app's main thread). Once open, reads wait for data as usual.
/// As a streambuf it feeds a std::istream; a failed read sets the stream's badbit.
class InputFile : public std::streambuf {
public:
    /// Opens `file`; if that fails, is_open() is false and errno says why.
    explicit InputFile(const std::filesystem::path& file);
    ~InputFile() override;
    InputFile(const InputFile&) = delete;
    InputFile& operator=(const InputFile&) = delete;

    bool is_open() const { return fd_ >= 0; }
    /// Reads what is there, up to `size` bytes, waiting for at least one; 0 at the end.
    /// Throws std::system_error if the read fails.
    std::size_t read_some(char* buffer, std::size_t size);

protected:
    int_type underflow() override;

private:
    int fd_ = -1;
    char buffer_[1 << 16];
};

}  // namespace ratelab::io::detail
