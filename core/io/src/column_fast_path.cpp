#include "column_fast_path.h"

#include <algorithm>
#include <exception>
#include <optional>
#include <system_error>
#include <thread>
#include <type_traits>
#include <vector>

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
    /// Plain whole numbers in [min, max], separated by commas, from here to `end` (the `,` or
    /// `]` after the last of them), appended to `out` and added to `sum`, which stays at most
    /// `max_sum`. False for anything else (signs, fractions, exponents, leading zeros, other
    /// values), `out` then holding part of them.
    template <class Value>
    bool number_run(std::size_t end, std::int64_t min, std::int64_t max, std::int64_t max_sum,
                    std::int64_t& sum, std::vector<Value>& out) {
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
                return false;
            }
            out.push_back(static_cast<Value>(value));
            skip_space();
            if (pos_ == end) {
                return true;
            }
        } while (take(','));
        return false;
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

/// Columns longer than this (in bytes of text, 4 MB) are read in pieces side by side, each on a
/// thread.
constexpr std::size_t kReadApart = std::size_t{1} << 22;

/// Part of a column found, to be read on its own: from `begin` (the column's `[`, for its first
/// piece) to `end` (the `,` after its last number, or the column's `]`).
struct Piece {
    std::size_t column;  ///< into the columns found
    std::size_t begin, end;
    bool first;                         ///< the column's first piece, from its `[`
    std::size_t room = 0;               ///< numbers to make room for: its own, or the column's
    std::vector<std::int64_t> ticks;    ///< what it read, for a column of tick deltas
    std::vector<std::uint32_t> values;  ///< for the others
    std::int64_t sum = 0;
};

/// The columns found, cut into pieces: a long column into about as many as there are cores,
/// each ending at a comma, so that every piece holds whole numbers.
std::vector<Piece> cut_into_pieces(std::string_view text, const std::vector<Found>& found) {
    const std::size_t cores = std::max(1U, std::thread::hardware_concurrency());
    std::vector<Piece> pieces;
    for (std::size_t c = 0; c < found.size(); ++c) {
        const std::size_t length = found[c].close - found[c].open;
        const std::size_t parts = std::clamp<std::size_t>(length / kReadApart, 1, cores);
        std::size_t begin = found[c].open;
        for (std::size_t k = 1; k < parts; ++k) {
            const std::size_t comma = text.find(',', found[c].open + length * k / parts);
            if (comma <= begin || comma >= found[c].close)
                continue;
            pieces.push_back(Piece{c, begin, comma, begin == found[c].open, 0, {}, {}, 0});
            begin = comma + 1;
        }
        pieces.push_back(Piece{c, begin, found[c].close, begin == found[c].open, 0, {}, {}, 0});
    }
    // Room for as many numbers as commas and one: the first piece takes the others' in when they
    // are joined, so it has room for the whole column. Growing a column as it is read would copy
    // it, and touch fresh memory, about twice over.
    for (auto from = pieces.begin(); from != pieces.end();) {
        auto to = from;
        std::size_t column = 0;
        for (; to != pieces.end() && to->column == from->column; ++to) {
            to->room = static_cast<std::size_t>(
                           std::count(text.begin() + to->begin + 1, text.begin() + to->end, ',')) +
                       1;
            column += to->room;
        }
        from->room = column;
        for (; from != to; ++from)
            from->room = std::min(from->room, bounds::kMaxRequests + 1);
    }
    return pieces;
}

/// Reads `piece` of a column of `which` if it holds plain whole numbers within bounds.
bool read_piece(std::string_view text, Found::Which which, Piece& piece) {
    Scanner scan(text);
    scan.seek(piece.begin);
    if (piece.first && (!scan.take('[') || scan.peek(']')))
        return scan.pos() == piece.end;  // an empty column ends at the `]` found for it
    if (which == Found::kTickDeltas)
        piece.ticks.reserve(piece.room);
    else
        piece.values.reserve(piece.room);
    switch (which) {
        case Found::kTickDeltas:
            return scan.number_run(piece.end, 0, bounds::kMaxTick, bounds::kMaxTick, piece.sum,
                                   piece.ticks);
        case Found::kCosts:
            return scan.number_run(piece.end, 1, bounds::kMaxCost, INT64_MAX, piece.sum,
                                   piece.values);
        case Found::kKeys:
            return scan.number_run(piece.end, 0, static_cast<std::int64_t>(bounds::kMaxKeys) - 1,
                                   INT64_MAX, piece.sum, piece.values);
    }
    return false;
}

/// Puts one column's pieces, [from, to), together into `out`: false if together they break a
/// bound.
template <class Value>
bool join_pieces(std::vector<Piece>::iterator from, std::vector<Piece>::iterator to,
                 std::int64_t max_sum, std::optional<std::vector<Value>>& out) {
    std::int64_t sum = 0;
    std::size_t size = 0;
    out.emplace();
    for (auto piece = from; piece != to; ++piece) {
        std::vector<Value>& read = [&]() -> std::vector<Value>& {
            if constexpr (std::is_same_v<Value, std::int64_t>)
                return piece->ticks;
            else
                return piece->values;
        }();
        sum += piece->sum;  // each at most a bound below 2^62
        size += read.size();
        if (sum > max_sum || size > bounds::kMaxRequests)
            return false;
        if (piece == from) {
            *out = std::move(read);  // the first piece's numbers, not copied
            continue;
        }
        out->insert(out->end(), read.begin(), read.end());
        std::vector<Value>().swap(read);
    }
    return true;
}

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
    // Each column is read into its own entry of `out`, a long one in pieces read side by side.
    // A column that is not plain numbers may have had a `]` inside it (in a string, or a nested
    // array), so that what was scanned after it is not to be trusted: then the JSON parser reads
    // everything.
    std::vector<Piece> pieces = cut_into_pieces(text, found);
    std::vector<char> read(pieces.size(), 0);
    std::vector<std::exception_ptr> failed(pieces.size());
    const auto work = [&](std::size_t i) {
        try {
            read[i] = read_piece(text, found[pieces[i].column].which, pieces[i]) ? 1 : 0;
        } catch (...) {
            failed[i] = std::current_exception();
        }
    };
    // The long pieces but the first on threads of their own, the others here meanwhile (half of
    // kReadApart: a column just over twice that is cut into two pieces just under it).
    std::vector<std::thread> threads;
    threads.reserve(pieces.size());  // no reallocation once a thread runs
    std::vector<char> here(pieces.size(), 1);
    for (std::size_t i = 1; i < pieces.size(); ++i) {
        if (pieces[i].end - pieces[i].begin < kReadApart / 2)
            continue;
        try {
            threads.emplace_back(work, i);
            here[i] = 0;
        } catch (const std::system_error&) {
            // no thread to be had: read here
        }
    }
    for (std::size_t i = 0; i < pieces.size(); ++i) {
        if (here[i])
            work(i);
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
    PreparsedColumns out;
    for (auto from = pieces.begin(); from != pieces.end();) {
        const std::size_t c = from->column;
        const auto to =
            std::find_if(from, pieces.end(), [c](const Piece& piece) { return piece.column != c; });
        const bool joined = found[c].which == Found::kTickDeltas
                                ? join_pieces(from, to, bounds::kMaxTick, out.tick_deltas)
                            : found[c].which == Found::kCosts
                                ? join_pieces(from, to, INT64_MAX, out.costs)
                                : join_pieces(from, to, INT64_MAX, out.keys);
        if (!joined)
            return {};
        from = to;
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
