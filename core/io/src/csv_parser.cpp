// CSV lines: delimiter and header detection, column choice by name or number, quoted fields.
#include <algorithm>
#include <charconv>
#include <span>
#include <vector>

#include "line_parsers.h"
#include "ratelab/limits.h"
#include "timestamps.h"

namespace ratelab::io::detail {

namespace {

constexpr std::size_t kNoColumn = static_cast<std::size_t>(-1);

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
        text.remove_suffix(1);
    }
    return text;
}

std::string lowercase_trimmed(std::string_view text) {
    std::string out(trimmed(text));
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return out;
}

// The header names each column is looked for under, in order of preference.
constexpr const char* kTimeColumns[] = {"timestamp", "time", "ts", "date", "datetime"};
constexpr const char* kKeyColumns[] = {"key", "client", "client_ip", "ip", "user", "host"};
constexpr const char* kCostColumns[] = {"cost", "weight"};

bool is_column_name(std::string_view field) {
    const std::string name = lowercase_trimmed(field);
    for (const auto& names :
         {std::span<const char* const>(kTimeColumns), std::span<const char* const>(kKeyColumns),
          std::span<const char* const>(kCostColumns)}) {
        if (std::find(names.begin(), names.end(), name) != names.end()) {
            return true;
        }
    }
    return false;
}

bool is_blank(char c) {
    return c == ' ' || c == '\t';
}

/// Splits CSV records into fields, a line at a time: "quoted, fields" with "" for a quote, and
/// blanks around a field or its quotes dropped. A line end inside quotes belongs to the field
/// (RFC 4180), and the record then goes on with the next line.
class FieldSplitter {
public:
    /// Adds one line (without its end) to the record; true if that ends the record.
    bool add_line(std::string_view line, char delimiter) {
        if (!quoted_) {
            fields_.clear();
            start_field();
        } else if (keep_text_) {
            field_ += '\n';
        }
        for (std::size_t i = 0; i < line.size(); ++i) {
            const char c = line[i];
            if (quoted_) {
                if (c != '"') {
                    keep(c);
                } else if (i + 1 < line.size() && line[i + 1] == '"') {
                    keep('"');
                    ++i;
                } else {
                    quoted_ = false;
                }
            } else if (c == delimiter) {
                end_field();
                start_field();
            } else if (c == '"' && !was_quoted_ && field_.find_first_not_of(" \t") == npos) {
                quoted_ = was_quoted_ = true;
                field_.clear();
            } else if (!(was_quoted_ && is_blank(c))) {
                keep(c);
            }
        }
        if (quoted_) {
            return false;
        }
        end_field();
        keep_text_ = true;
        return true;
    }
    /// Whether the record so far ends inside quotes.
    bool open() const { return quoted_; }
    /// Reads the open record on to its end without keeping its text.
    void discard() {
        keep_text_ = false;
        field_.clear();
        fields_.clear();
    }
    std::vector<std::string>& fields() { return fields_; }

private:
    static constexpr std::size_t npos = std::string::npos;

    void keep(char c) {
        if (keep_text_) {
            field_ += c;
        }
    }
    void start_field() {
        field_.clear();
        was_quoted_ = false;
    }
    void end_field() {
        fields_.push_back(was_quoted_ ? std::move(field_) : std::string(trimmed(field_)));
    }

    std::vector<std::string> fields_;
    std::string field_;
    bool quoted_ = false;
    bool was_quoted_ = false;  ///< the field being read was quoted: what follows is ignored blanks
    bool keep_text_ = true;
};

std::vector<std::string> split_fields(std::string_view line, char delimiter) {
    FieldSplitter splitter;
    splitter.add_line(line, delimiter);
    return std::move(splitter.fields());
}

/// True if a comma sits between two digits: a decimal comma, as in files separated by ';'.
bool is_decimal_comma(std::string_view line, std::size_t i) {
    const auto digit = [&](std::size_t j) { return line[j] >= '0' && line[j] <= '9'; };
    return i > 0 && i + 1 < line.size() && digit(i - 1) && digit(i + 1);
}

/// The delimiter of a file whose first line is `line`: of , ; tab and |, one that splits the line
/// into fields of which one is a time or a known column name, else the most frequent outside
/// quotes (commas between digits not counted); a comma if none is there.
char detect_delimiter(std::string_view line, TimeUnit unit) {
    char best = ',';
    std::size_t best_count = 0;
    bool best_makes_sense = false;
    for (char candidate : {',', ';', '\t', '|'}) {
        std::size_t count = 0;
        bool quoted = false;
        for (std::size_t i = 0; i < line.size(); ++i) {
            quoted = line[i] == '"' ? !quoted : quoted;
            count +=
                !quoted && line[i] == candidate && !(candidate == ',' && is_decimal_comma(line, i));
        }
        if (count == 0) {
            continue;
        }
        bool makes_sense = false;
        for (const std::string& field : split_fields(line, candidate)) {
            makes_sense = makes_sense || parse_time_ms(field, unit) || is_column_name(field);
        }
        if (std::pair(makes_sense, count) > std::pair(best_makes_sense, best_count)) {
            best = candidate;
            best_count = count;
            best_makes_sense = makes_sense;
        }
    }
    return best;
}

class CsvParser : public LineParser {
public:
    explicit CsvParser(const ImportOptions& options) : options_(options) {}

    bool take_first_line(std::string_view line) override;
    std::optional<std::string> parse(std::string_view line, ImportRecord& record) override;
    bool pending() const override { return splitter_.open(); }
    bool quotes_span_lines() const override { return true; }
    void discard_pending() override { splitter_.discard(); }
    ImportLayout layout() const override;

private:
    /// The column `spec` names: a 1-based number, or a header name (needs a header).
    std::size_t resolve(const std::string& spec, const char* role) const;
    std::size_t find_default(std::span<const char* const> names) const;

    const ImportOptions& options_;
    char delimiter_ = ',';
    std::vector<std::string> header_;  ///< lowercased names, empty without a header
    std::size_t time_ = 0;
    std::size_t key_ = kNoColumn;
    std::size_t cost_ = kNoColumn;
    FieldSplitter splitter_;
    std::string time_format_;  ///< of the first time read
};

ImportLayout CsvParser::layout() const {
    const auto column = [this](std::size_t index) {
        if (index == kNoColumn) {
            return std::string();
        }
        return index < header_.size() ? header_[index] : "column " + std::to_string(index + 1);
    };
    ImportLayout out;
    out.delimiter = delimiter_;
    out.header = !header_.empty();
    out.time_column = column(time_);
    out.key_column = column(key_);
    out.cost_column = column(cost_);
    out.time_format = time_format_;
    return out;
}

/// How `text`, read as a time of `unit`, was written.
std::string time_format_of(std::string_view text, TimeUnit unit) {
    switch (unit) {
        case TimeUnit::kSeconds:
            return "epoch seconds";
        case TimeUnit::kMilliseconds:
            return "epoch milliseconds";
        case TimeUnit::kIso8601:
            return "ISO 8601";
        case TimeUnit::kAuto:
            break;
    }
    if (parse_time_ms(text, TimeUnit::kIso8601) && !parse_time_ms(text, TimeUnit::kSeconds)) {
        return "ISO 8601";
    }
    const auto seconds = parse_time_ms(text, TimeUnit::kSeconds);
    const auto automatic = parse_time_ms(text, TimeUnit::kAuto);
    return seconds && automatic == seconds ? "epoch seconds" : "epoch milliseconds";
}

std::size_t CsvParser::resolve(const std::string& spec, const char* role) const {
    std::size_t number = 0;
    const auto [end, error] = std::from_chars(spec.data(), spec.data() + spec.size(), number);
    if (error == std::errc() && end == spec.data() + spec.size()) {
        if (number < 1) {
            throw ImportError(std::string("the ") + role + " column number starts at 1");
        }
        return number - 1;
    }
    const auto it = std::find(header_.begin(), header_.end(), lowercase_trimmed(spec));
    if (it == header_.end()) {
        throw ImportError(
            std::string("no ") + role + " column named \"" + spec + "\"" +
            (header_.empty() ? " (the file has no header line; give its number)" : ""));
    }
    return static_cast<std::size_t>(it - header_.begin());
}

std::size_t CsvParser::find_default(std::span<const char* const> names) const {
    for (const char* name : names) {
        const auto it = std::find(header_.begin(), header_.end(), name);
        if (it != header_.end()) {
            return static_cast<std::size_t>(it - header_.begin());
        }
    }
    return kNoColumn;
}

bool CsvParser::take_first_line(std::string_view line) {
    delimiter_ = options_.delimiter.value_or(detect_delimiter(line, options_.time_unit));
    const std::vector<std::string> fields = split_fields(line, delimiter_);
    std::vector<std::string> names;
    for (const std::string& field : fields) {
        names.push_back(lowercase_trimmed(field));
    }
    bool header = false;
    if (options_.header) {
        header = *options_.header;
    } else {
        // A header if the time column, looked up as it would be, holds no time.
        header_ = names;
        std::size_t time = options_.time_column.empty() ? find_default(kTimeColumns) : kNoColumn;
        if (!options_.time_column.empty()) {
            try {
                time = resolve(options_.time_column, "time");
            } catch (const ImportError&) {
                time = kNoColumn;
            }
        }
        const std::size_t index = time == kNoColumn ? 0 : time;
        header = index >= fields.size() || !parse_time_ms(fields[index], options_.time_unit);
        header_.clear();
    }
    if (header) {
        header_ = std::move(names);
    }
    if (!options_.time_column.empty()) {
        time_ = resolve(options_.time_column, "time");
    } else {
        time_ = find_default(kTimeColumns);
        time_ = time_ == kNoColumn ? 0 : time_;
    }
    key_ = options_.key_column.empty() ? find_default(kKeyColumns)
                                       : resolve(options_.key_column, "key");
    cost_ = options_.cost_column.empty() ? find_default(kCostColumns)
                                         : resolve(options_.cost_column, "cost");
    return header;
}

std::optional<std::string> CsvParser::parse(std::string_view line, ImportRecord& record) {
    if (!splitter_.add_line(line, delimiter_)) {
        return std::nullopt;  // pending: the next line goes on with this record
    }
    const std::vector<std::string>& fields = splitter_.fields();
    const std::size_t needed =
        std::max({time_, key_ == kNoColumn ? 0 : key_, cost_ == kNoColumn ? 0 : cost_}) + 1;
    if (fields.size() < needed) {
        return "has " + std::to_string(fields.size()) + " fields, needs " + std::to_string(needed);
    }
    const auto ms = parse_time_ms(fields[time_], options_.time_unit);
    if (!ms || *ms < 0) {
        return "cannot read the time \"" + fields[time_].substr(0, 40) + "\"";
    }
    record.time_ms = *ms;
    if (time_format_.empty()) {
        time_format_ = time_format_of(fields[time_], options_.time_unit);
    }
    record.cost = 1;
    if (cost_ != kNoColumn) {
        const std::string& text = fields[cost_];
        std::int64_t cost = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), cost);
        if (error != std::errc() || end != text.data() + text.size() || cost < 1 ||
            cost > bounds::kMaxCost) {
            return "the cost \"" + text.substr(0, 20) + "\" is not a whole number from 1 to " +
                   std::to_string(bounds::kMaxCost);
        }
        record.cost = static_cast<std::uint32_t>(cost);
    }
    record.key = key_ == kNoColumn ? std::string_view() : std::string_view(fields[key_]);
    return key_problem(record.key);
}

}  // namespace

std::unique_ptr<LineParser> make_csv_parser(const ImportOptions& options) {
    return std::make_unique<CsvParser>(options);
}

}  // namespace ratelab::io::detail
