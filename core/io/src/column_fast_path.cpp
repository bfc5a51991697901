#include "column_fast_path.h"

#include <algorithm>
#include <exception>
#include <optional>
#include <system_error>
#include <thread>

#include "ratelab/limits.h"

namespace ratelab::io::detail {

namespace {

/// A forgiving walk over the top of the document: it only needs to find the columns, and gives
/// up (leaving everything to the JSON parser) at the first thing it does not expect.
class Scanner {
public:
    explicit Scanner(std::string_view text) : text_(text) {}

    std::size_t pos() const { return pos_; }
    void seek(std::size_t pos) { pos_ = pos; }
    void skip_space() {
        while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\n' ||
                                       text_[pos_] == '\r' || text_[pos_] == '\t')) {
            ++pos_;
        }
    }
    bool take(char c) {
        skip_space();
        if (pos_ < text_.size() && text_[pos_] == c) {
            ++pos_;
            return true;
        }
        return false;
    }
    bool peek(char c) {
        skip_space();
        return pos_ < text_.size() && text_[pos_] == c;
    }
    /// A string's raw text (escapes left as they are: the names we look for have none).
    bool string(std::string_view& out) {
        if (!take('"')) {
            return false;
        }
        const std::size_t start = pos_;
        while (pos_ < text_.size() && text_[pos_] != '"') {
            pos_ += text_[pos_] == '\\' ? 2 : 1;
        }
        if (pos_ >= text_.size()) {
            return false;
        }
        out = text_.substr(start, pos_++ - start);
        return true;
    }
    bool skip_value() {
        skip_space();
        if (pos_ >= text_.size()) {
            return false;
        }
        if (text_[pos_] == '"') {
            std::string_view ignored;
            return string(ignored);
        }
        int depth = 0;
        do {
            if (pos_ >= text_.size()) {
                return false;
            }
            const char c = text_[pos_];
            if (c == '"') {
                std::string_view ignored;
                if (!string(ignored)) {
                    return false;
                }
                continue;
            }
            if (depth == 0 && (c == ',' || c == '}' || c == ']')) {
                return true;  // the end of a scalar
            }
            depth += (c == '{' || c == '[') ? 1 : (c == '}' || c == ']') ? -1 : 0;
            ++pos_;
        } while (depth > 0 || (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '}' &&
                               text_[pos_] != ']'));
        return true;
    }
    /// `[n, n, ...]` of plain whole numbers in [min, max]; false, with the position unchanged,
    /// for anything else (signs, fractions, exponents, leading zeros, other values).
    template <class Value>
    bool numbers(std::int64_t min, std::int64_t max, std::int64_t max_sum,
                 std::vector<Value>& out) {
        const std::size_t start = pos_;
        std::int64_t sum = 0;
        if (!take('[')) {
            return false;
        }
        if (take(']')) {
            return true;
        }
        do {
            skip_space();
            const std::size_t digits_start = pos_;
            std::int64_t value = 0;
            while (pos_ < text_.size() && text_[pos_] >= '0' && text_[pos_] <= '9' &&
                   pos_ - digits_start < 18) {
                value = value * 10 + (text_[pos_++] - '0');
            }
            const std::size_t digits = pos_ - digits_start;
            const bool plain = digits > 0 && (digits == 1 || text_[digits_start] != '0') &&
                               pos_ < text_.size() &&
                               (text_[pos_] == ',' || text_[pos_] == ']' || text_[pos_] == ' ' ||
                                text_[pos_] == '\n' || text_[pos_] == '\r' || text_[pos_] == '\t');
            sum += value;
            if (!plain || value < min || value > max || sum > max_sum ||
                out.size() >= bounds::kMaxRequests) {
                pos_ = start;
                out.clear();
                return false;
            }
            out.push_back(static_cast<Value>(value));
        } while (take(','));
        if (!take(']')) {
            pos_ = start;
            out.clear();
            return false;
        }
        return true;
    }

private:
    std::string_view text_;
    std::size_t pos_ = 0;
};

/// A column found in the document, to be read: which one, where its `[` is and where the first
/// `]` after it is. The two are the column's brackets only if it holds plain numbers, which
/// reading it checks.
struct Found {
    enum Which { kTickDeltas, kCosts, kKeys } which;
    std::size_t open = 0;
    std::size_t close = 0;
};

/// Finds the columns in `$.columns` that are arrays, stepping over each to the first `]` after
/// its `[` (a plain column has no other). False for anything unexpected, a repeated column
/// included (the JSON parser reports it).
bool scan_columns(std::string_view text, Scanner& scan, std::vector<Found>& found) {
    if (!scan.take('{')) {
        return false;
    }
    if (scan.take('}')) {
        return true;
    }
    do {
        std::string_view name;
        if (!scan.string(name) || !scan.take(':')) {
            return false;
        }
        const auto which = name == "tick_deltas" ? std::optional(Found::kTickDeltas)
                           : name == "costs"     ? std::optional(Found::kCosts)
                           : name == "keys"      ? std::optional(Found::kKeys)
                                                 : std::nullopt;
        if (which && std::any_of(found.begin(), found.end(),
                                 [&](const Found& f) { return f.which == *which; })) {
            return false;
        }
        if (which && scan.peek('[')) {
            const std::size_t open = scan.pos();
            const std::size_t close = text.find(']', open);
            if (close == std::string_view::npos) {
                return false;
            }
            found.push_back({*which, open, close});
            scan.seek(close + 1);
        } else if (!scan.skip_value()) {
            return false;
        }
    } while (scan.take(','));
    return scan.take('}');
}

/// Reads the column `found` into `out` if it holds plain whole numbers within bounds and ends
/// at the bracket found for it.
bool read_found(std::string_view text, const Found& found, PreparsedColumns& out) {
    Scanner scan(text);
    scan.seek(found.open);
    const auto read = [&](auto& column, std::int64_t min, std::int64_t max, std::int64_t max_sum) {
        column.emplace();
        return scan.numbers(min, max, max_sum, *column) && scan.pos() == found.close + 1;
    };
    switch (found.which) {
        case Found::kTickDeltas:
            return read(out.tick_deltas, 0, bounds::kMaxTick, bounds::kMaxTick);
        case Found::kCosts:
            return read(out.costs, 1, bounds::kMaxCost, INT64_MAX);
        case Found::kKeys:
            return read(out.keys, 0, static_cast<std::int64_t>(bounds::kMaxKeys) - 1, INT64_MAX);
    }
    return false;
}

/// Columns longer than this (in bytes of text, 4 MB) are read side by side, each on a thread.
constexpr std::size_t kReadApart = std::size_t{1} << 22;

}  // namespace

PreparsedColumns preparse_columns(std::string_view text) {
    std::vector<Found> found;
    Scanner scan(text);
    if (!scan.take('{') || scan.peek('}')) {
        return {};
    }
    do {
        std::string_view name;
        if (!scan.string(name) || !scan.take(':')) {
            return {};
        }
        const bool ok = name == "columns" && scan.peek('{') ? scan_columns(text, scan, found)
                                                            : scan.skip_value();
        if (!ok) {
            return {};
        }
    } while (scan.take(','));
    if (found.empty()) {
        return {};
    }
    // Each column is read into its own entry of `out`. A column that is not plain numbers may
    // have had a `]` inside it (in a string, or a nested array), so that what was scanned after
    // it is not to be trusted: then the JSON parser reads everything.
    PreparsedColumns out;
    std::vector<char> read(found.size(), 0);
    std::vector<std::thread> threads;
    threads.reserve(found.size());  // no reallocation once a thread runs
    std::vector<std::exception_ptr> failed(found.size());
    for (std::size_t i = 1; i < found.size(); ++i) {
        const auto work = [&, i] {
            try {
                read[i] = read_found(text, found[i], out) ? 1 : 0;
            } catch (...) {
                failed[i] = std::current_exception();
            }
        };
        if (found[i].close - found[i].open < kReadApart) {
            work();
            continue;
        }
        try {
            threads.emplace_back(work);
        } catch (const std::system_error&) {
            work();  // no thread to be had: read here
        }
    }
    try {
        read[0] = read_found(text, found[0], out) ? 1 : 0;
    } catch (...) {
        failed[0] = std::current_exception();
    }
    for (std::thread& thread : threads)
        thread.join();
    for (const std::exception_ptr& error : failed) {
        if (error)
            std::rethrow_exception(error);
    }
    if (std::find(read.begin(), read.end(), 0) != read.end()) {
        return {};
    }
    for (const Found& f : found)
        out.ranges.push_back({f.open + 1, f.close});
    std::sort(out.ranges.begin(), out.ranges.end());
    return out;
}

std::string without_columns(std::string_view text, const PreparsedColumns& columns) {
    std::string cut;
    std::size_t from = 0;
    for (const auto& [begin, end] : columns.ranges) {
        cut.append(text.substr(from, begin - from));
        from = end;
    }
    cut.append(text.substr(from));
    return cut;
}

std::string blank_columns(std::string_view text, const PreparsedColumns& columns) {
    std::string blanked(text);
    for (const auto& [begin, end] : columns.ranges) {
        for (std::size_t i = begin; i < end; ++i) {
            if (blanked[i] != '\n') {
                blanked[i] = ' ';
            }
        }
    }
    return blanked;
}

}  // namespace ratelab::io::detail
