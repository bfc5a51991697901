#include "column_fast_path.h"

#include "ratelab/limits.h"

namespace ratelab::io::detail {

namespace {

/// A forgiving walk over the top of the document: it only needs to find the columns, and gives
/// up (leaving everything to the JSON parser) at the first thing it does not expect.
class Scanner {
public:
    explicit Scanner(std::string_view text) : text_(text) {}

    std::size_t pos() const { return pos_; }
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

using BlankRange = std::pair<std::size_t, std::size_t>;

/// Reads one column if it is plain; records the range to blank.
template <class Value>
bool read_column(Scanner& scan, std::optional<std::vector<Value>>& column, std::int64_t min,
                 std::int64_t max, std::int64_t max_sum, std::vector<BlankRange>& blanks) {
    if (column) {
        return false;  // a repeated column: the JSON parser reports it
    }
    scan.skip_space();
    const std::size_t begin = scan.pos();
    std::vector<Value> values;
    if (scan.numbers(min, max, max_sum, values)) {
        blanks.push_back({begin + 1, scan.pos() - 1});
        column = std::move(values);
        return true;
    }
    return scan.skip_value();
}

bool scan_columns(Scanner& scan, PreparsedColumns& out, std::vector<BlankRange>& blanks) {
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
        bool ok = true;
        if (name == "tick_deltas") {
            ok = read_column(scan, out.tick_deltas, 0, bounds::kMaxTick, bounds::kMaxTick, blanks);
        } else if (name == "costs") {
            ok = read_column(scan, out.costs, 1, bounds::kMaxCost, INT64_MAX, blanks);
        } else if (name == "keys") {
            ok = read_column(scan, out.keys, 0, static_cast<std::int64_t>(bounds::kMaxKeys) - 1,
                             INT64_MAX, blanks);
        } else {
            ok = scan.skip_value();
        }
        if (!ok) {
            return false;
        }
    } while (scan.take(','));
    return scan.take('}');
}

}  // namespace

PreparsedColumns preparse_columns(std::string_view text) {
    PreparsedColumns out;
    std::vector<BlankRange>& blanks = out.ranges;
    Scanner scan(text);
    if (!scan.take('{') || scan.peek('}')) {
        return {};
    }
    do {
        std::string_view name;
        if (!scan.string(name) || !scan.take(':')) {
            return {};
        }
        const bool ok = name == "columns" && scan.peek('{') ? scan_columns(scan, out, blanks)
                                                            : scan.skip_value();
        if (!ok) {
            return {};
        }
    } while (scan.take(','));
    if (!out.any()) {
        return {};
    }
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
