#include "line_reader.h"

#include <cstring>

#include "ratelab/io/importers.h"

namespace ratelab::io::detail {

namespace {

/// The first CR or LF in [begin, end), or end. memchr, because this runs over every byte.
const char* find_line_end(const char* begin, const char* end) {
    const auto* lf = static_cast<const char*>(std::memchr(begin, '\n', end - begin));
    const char* stop = lf ? lf : end;
    const auto* cr = static_cast<const char*>(std::memchr(begin, '\r', stop - begin));
    return cr ? cr : stop;
}

}  // namespace

bool LineReader::fill() {
    in_.read(buffer_, sizeof buffer_);
    if (in_.bad()) {
        throw ImportError("reading stopped at line " + std::to_string(line_number_ + 1));
    }
    pos_ = 0;
    end_ = static_cast<std::size_t>(in_.gcount());
    bytes_ += end_;
    if (bytes_ > max_bytes_) {
        throw ImportError("the input is longer than " + std::to_string(max_bytes_) +
                          " bytes, the most an import reads");
    }
    return end_ > 0;
}

bool LineReader::next(std::string& line) {
    line.clear();
    too_long_ = too_long_quote_ = false;
    bool any = false;  // a last line without an end still counts
    for (;;) {
        if (pos_ == end_ && !fill()) {
            if (any) {
                ++line_number_;
            }
            return any;
        }
        if (after_cr_) {
            after_cr_ = false;
            if (buffer_[pos_] == '\n') {
                ++pos_;
                continue;
            }
        }
        any = true;
        const char* begin = buffer_ + pos_;
        const char* stop = find_line_end(begin, buffer_ + end_);
        const auto length = static_cast<std::size_t>(stop - begin);
        if (too_long_ || line.size() + length > kMaxImportLineBytes) {
            // Read on to the line's end, keeping nothing but whether a quote went past.
            too_long_quote_ = too_long_quote_ || line.find('"') != std::string::npos ||
                              std::memchr(begin, '"', length) != nullptr;
            too_long_ = true;
            line.clear();
        } else {
            line.append(begin, length);
        }
        pos_ += length;
        if (pos_ < end_) {
            after_cr_ = buffer_[pos_] == '\r';
            ++pos_;
            ++line_number_;
            return true;
        }
    }
}

}  // namespace ratelab::io::detail
