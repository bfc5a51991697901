// Access-log lines in the Common Log Format and the Combined Log Format:
//   host ident user [10/Oct/2000:13:55:36 -0700] "GET /a HTTP/1.1" 200 2326 "referer" "agent"
#include "line_parsers.h"
#include "timestamps.h"

namespace ratelab::io::detail {

namespace {

const char* const kLogFields[] = {"host", "ident",  "user",    "request",    "method",
                                  "path", "status", "referer", "user_agent", "none"};

/// Walks one log line field by field.
class Cursor {
public:
    explicit Cursor(std::string_view line) : line_(line) {}

    bool token(std::string_view& out) {
        const std::size_t end = std::min(line_.find(' ', pos_), line_.size());
        out = line_.substr(pos_, end - pos_);
        pos_ = end;
        return !out.empty();
    }
    bool bracketed(std::string_view& out) {
        if (pos_ >= line_.size() || line_[pos_] != '[') {
            return false;
        }
        const std::size_t end = line_.find(']', pos_);
        if (end == std::string_view::npos) {
            return false;
        }
        out = line_.substr(pos_ + 1, end - pos_ - 1);
        pos_ = end + 1;
        return true;
    }
    /// A "quoted" field; a backslash escapes the next character, as servers write them.
    bool quoted(std::string_view& out) {
        if (pos_ >= line_.size() || line_[pos_] != '"') {
            return false;
        }
        std::size_t end = pos_ + 1;
        while (end < line_.size() && line_[end] != '"') {
            end += line_[end] == '\\' ? 2 : 1;
        }
        if (end >= line_.size()) {
            return false;
        }
        out = line_.substr(pos_ + 1, end - pos_ - 1);
        pos_ = end + 1;
        return true;
    }
    bool space() {
        if (pos_ < line_.size() && line_[pos_] == ' ') {
            ++pos_;
            return true;
        }
        return false;
    }
    bool at_end() const { return pos_ >= line_.size(); }

private:
    std::string_view line_;
    std::size_t pos_ = 0;
};

class AccessLogParser : public LineParser {
public:
    explicit AccessLogParser(const ImportOptions& options)
        : combined_(options.format == ImportFormat::kCombinedLog), key_field_(options.log_key) {
        bool known = false;
        for (const char* field : kLogFields) {
            known = known || key_field_ == field;
        }
        if (!known) {
            throw ImportError("unknown log field \"" + key_field_ +
                              "\" for the key (use host, ident, user, request, method, path, "
                              "status, referer, user_agent or none)");
        }
        if (!combined_ && (key_field_ == "referer" || key_field_ == "user_agent")) {
            throw ImportError("the Common Log Format has no " + key_field_ +
                              " field; use --format combined");
        }
    }

    bool take_first_line(std::string_view) override { return false; }
    ImportLayout layout() const override {
        ImportLayout out;
        out.log_key = key_field_;
        return out;
    }

    std::optional<std::string> parse(std::string_view line, ImportRecord& record) override {
        Cursor cursor(line);
        std::string_view host, ident, user, time, request, status, bytes, referer, agent;
        if (!cursor.token(host) || !cursor.space() || !cursor.token(ident) || !cursor.space() ||
            !cursor.token(user) || !cursor.space()) {
            return std::string("not an access-log line (expected host ident user [time] ...)");
        }
        if (!cursor.bracketed(time)) {
            return std::string("no [time] after the user field");
        }
        const auto ms = parse_clf_time_ms(time);
        if (!ms || *ms < 0) {
            return "cannot read the time [" + std::string(time.substr(0, 40)) + "]";
        }
        if (!cursor.space() || !cursor.quoted(request) || !cursor.space() ||
            !cursor.token(status) || !cursor.space() || !cursor.token(bytes)) {
            return std::string("no \"request\" status bytes after the time");
        }
        if (combined_ && (!cursor.space() || !cursor.quoted(referer) || !cursor.space() ||
                          !cursor.quoted(agent))) {
            return std::string("no \"referer\" \"user agent\" (not the Combined Log Format)");
        }
        record.time_ms = *ms;
        record.cost = 1;
        record.key = select_key(host, ident, user, request, status, referer, agent);
        return key_problem(record.key);
    }

private:
    std::string_view select_key(std::string_view host, std::string_view ident,
                                std::string_view user, std::string_view request,
                                std::string_view status, std::string_view referer,
                                std::string_view agent) const {
        if (key_field_ == "method" || key_field_ == "path") {
            const std::size_t first = request.find(' ');
            if (key_field_ == "method") {
                return request.substr(0, first);
            }
            if (first == std::string_view::npos) {
                return {};
            }
            const std::string_view rest = request.substr(first + 1);
            return rest.substr(0, rest.find(' '));
        }
        return key_field_ == "host"         ? host
               : key_field_ == "ident"      ? ident
               : key_field_ == "user"       ? user
               : key_field_ == "request"    ? request
               : key_field_ == "status"     ? status
               : key_field_ == "referer"    ? referer
               : key_field_ == "user_agent" ? agent
                                            : std::string_view();
    }

    bool combined_;
    std::string key_field_;
};

}  // namespace

std::unique_ptr<LineParser> make_access_log_parser(const ImportOptions& options) {
    return std::make_unique<AccessLogParser>(options);
}

}  // namespace ratelab::io::detail
