// CSV lines: delimiter and header detection, column choice by name or number, quoted fields.
#include <algorithm>
#include <charconv>
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

/// Splits one line at `delimiter`, honouring "quoted, fields" with "" for a quote. False if a
/// quote is left open.
bool split_fields(std::string_view line, char delimiter, std::vector<std::string>& fields) {
    fields.clear();
    std::string field;
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (quoted) {
            if (c == '"' && i + 1 < line.size() && line[i + 1] == '"') {
                field += '"';
                ++i;
            } else if (c == '"') {
                quoted = false;
            } else {
                field += c;
            }
        } else if (c == '"' && field.empty()) {
            quoted = true;
        } else if (c == delimiter) {
            fields.push_back(std::move(field));
            field.clear();
        } else {
            field += c;
        }
    }
    fields.push_back(std::move(field));
    return !quoted;
}

char detect_delimiter(std::string_view line) {
    char best = ',';
    std::size_t best_count = 0;
    for (char candidate : {',', ';', '\t', '|'}) {
        std::size_t count = 0;
        bool quoted = false;
        for (char c : line) {
            quoted = c == '"' ? !quoted : quoted;
            count += !quoted && c == candidate;
        }
        if (count > best_count) {
            best = candidate;
            best_count = count;
        }
    }
    return best;
}

class CsvParser : public LineParser {
public:
    explicit CsvParser(const ImportOptions& options) : options_(options) {}

    bool take_first_line(std::string_view line) override;
    std::optional<std::string> parse(std::string_view line, ImportRecord& record) override;

private:
    /// The column `spec` names: a 1-based number, or a header name (needs a header).
    std::size_t resolve(const std::string& spec, const char* role) const;
    std::size_t find_default(std::initializer_list<const char*> names) const;

    const ImportOptions& options_;
    char delimiter_ = ',';
    std::vector<std::string> header_;  ///< lowercased names, empty without a header
    std::size_t time_ = 0;
    std::size_t key_ = kNoColumn;
    std::size_t cost_ = kNoColumn;
    std::vector<std::string> fields_;
};

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

std::size_t CsvParser::find_default(std::initializer_list<const char*> names) const {
    for (const char* name : names) {
        const auto it = std::find(header_.begin(), header_.end(), name);
        if (it != header_.end()) {
            return static_cast<std::size_t>(it - header_.begin());
        }
    }
    return kNoColumn;
}

bool CsvParser::take_first_line(std::string_view line) {
    delimiter_ = options_.delimiter.value_or(detect_delimiter(line));
    split_fields(line, delimiter_, fields_);
    std::vector<std::string> names;
    for (const std::string& field : fields_) {
        names.push_back(lowercase_trimmed(field));
    }
    bool header = false;
    if (options_.header) {
        header = *options_.header;
    } else {
        // A header if the time column, looked up as it would be, holds no time.
        header_ = names;
        std::size_t time = options_.time_column.empty()
                               ? find_default({"timestamp", "time", "ts", "date", "datetime"})
                               : kNoColumn;
        if (!options_.time_column.empty()) {
            try {
                time = resolve(options_.time_column, "time");
            } catch (const ImportError&) {
                time = kNoColumn;
            }
        }
        const std::size_t index = time == kNoColumn ? 0 : time;
        header =
            index >= fields_.size() || !parse_time_ms(trimmed(fields_[index]), options_.time_unit);
        header_.clear();
    }
    if (header) {
        header_ = std::move(names);
    }
    if (!options_.time_column.empty()) {
        time_ = resolve(options_.time_column, "time");
    } else {
        time_ = find_default({"timestamp", "time", "ts", "date", "datetime"});
        time_ = time_ == kNoColumn ? 0 : time_;
    }
    key_ = options_.key_column.empty()
               ? find_default({"key", "client", "client_ip", "ip", "user", "host"})
               : resolve(options_.key_column, "key");
    cost_ = options_.cost_column.empty() ? find_default({"cost", "weight"})
                                         : resolve(options_.cost_column, "cost");
    return header;
}

std::optional<std::string> CsvParser::parse(std::string_view line, ImportRecord& record) {
    if (!split_fields(line, delimiter_, fields_)) {
        return "a quoted field is not closed";
    }
    const std::size_t needed =
        std::max({time_, key_ == kNoColumn ? 0 : key_, cost_ == kNoColumn ? 0 : cost_}) + 1;
    if (fields_.size() < needed) {
        return "has " + std::to_string(fields_.size()) + " fields, needs " + std::to_string(needed);
    }
    const auto ms = parse_time_ms(trimmed(fields_[time_]), options_.time_unit);
    if (!ms || *ms < 0) {
        return "cannot read the time \"" + fields_[time_].substr(0, 40) + "\"";
    }
    record.time_ms = *ms;
    record.cost = 1;
    if (cost_ != kNoColumn) {
        const std::string& text = fields_[cost_];
        std::int64_t cost = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), cost);
        if (error != std::errc() || end != text.data() + text.size() || cost < 1 ||
            cost > bounds::kMaxCost) {
            return "the cost \"" + text.substr(0, 20) + "\" is not a whole number from 1 to " +
                   std::to_string(bounds::kMaxCost);
        }
        record.cost = static_cast<std::uint32_t>(cost);
    }
    record.key = key_ == kNoColumn ? std::string_view() : std::string_view(fields_[key_]);
    return key_problem(record.key);
}

}  // namespace

std::unique_ptr<LineParser> make_csv_parser(const ImportOptions& options) {
    return std::make_unique<CsvParser>(options);
}

}  // namespace ratelab::io::detail
