#include "trace_sax.h"

#include <optional>
#include "trace_reader.h"

namespace ratelab::io::detail {

namespace {

/// Turns nlohmann's byte offset into "line:column" (both from 1).
std::string line_column(std::string_view text, std::size_t position) {
    const std::size_t end = std::min(position, text.size());
    std::size_t line = 1;
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < end; ++i) {
        if (text[i] == '\n') {
            ++line;
            line_start = i + 1;
        }
    }
    const std::size_t column = end > line_start ? end - line_start : 1;
    return std::to_string(line) + ':' + std::to_string(column);
}

/// The reason in nlohmann's message, without its "[json.exception...] ... column N: " prefix.
std::string syntax_reason(const std::string& message) {
    std::size_t start = message.find("column ");
    start = start == std::string::npos ? std::string::npos : message.find(": ", start);
    if (start != std::string::npos) {
        return printable(message.substr(start + 2));
    }
    // Other errors (a number too large for a double) carry only the "[json.exception...] " id.
    start = message.rfind("[json.exception.", 0) == 0 ? message.find("] ") : std::string::npos;
    return printable(start == std::string::npos ? message : message.substr(start + 2));
}

bool starts_with(std::string_view text, std::string_view prefix) {
    return text.substr(0, prefix.size()) == prefix;
}

/// The parser's reason in a reader's words: without its grammar context ("syntax error while
/// parsing object key - ") and without the "; last read: '...'" echo, which repeats up to a few
/// hundred characters of the file.
std::string plain_reason(std::string reason) {
    if (starts_with(reason, "syntax error while parsing ")) {
        const std::size_t dash = reason.find(" - ");
        if (dash != std::string::npos)
            reason.erase(0, dash + 3);
    }
    if (const std::size_t echo = reason.find("; last read: "); echo != std::string::npos) {
        // The echo ends with the closing quote; whatever follows it ("; expected ...") stays.
        const std::size_t after = reason.find("'; ", echo + 14);
        reason.erase(echo, after == std::string::npos ? std::string::npos : after + 1 - echo);
    }
    if (starts_with(reason, "invalid string: missing closing quote"))
        return "a string has no closing quote";
    if (starts_with(reason, "invalid literal"))
        return "a word JSON does not know (only true, false and null are)";
    if (starts_with(reason, "invalid number"))
        return "a number is not written correctly";
    return reason;
}

/// "line 12": the line of `position`, for a sentence.
std::string line_of(std::string_view text, std::size_t position) {
    const std::string at = line_column(text, position);
    return "line " + at.substr(0, at.find(':'));
}

}  // namespace

bool TraceReader::parse_error(std::size_t position, const std::string&,
                              const nlohmann::detail::exception& e) {
    const std::string reason = syntax_reason(e.what());
    const bool utf8 = reason.find("UTF-8") != std::string::npos;
    if (utf8) {
        throw TraceProblem{line_column(text_, position), "invalid-utf8",
                           "a string holds bytes that are not valid UTF-8 (" + reason + ")"};
    }
    // A file cut short (a failed download, a full disk) runs out inside a value: say so, and
    // where, rather than what the parser expected next.
    const bool at_end =
        position >= text_.size() || reason.find("unexpected end of input") != std::string::npos;
    if (at_end) {
        const bool in_string = starts_with(plain_reason(reason), "a string has no closing quote");
        throw TraceProblem{line_column(text_, position), "not-json",
                           "not valid JSON: the file ends early, at " + line_of(text_, position) +
                               (in_string ? " in the middle of a string" : "") +
                               "; it may have been cut short"};
    }
    throw TraceProblem{line_column(text_, position), "not-json",
                       "not valid JSON: " + plain_reason(reason)};
}

std::string TraceReader::location() const {
    switch (where_) {
        case Where::kTop:
            return member_path("$", top_key_);
        case Where::kTree:
            return tree_.back().pending_key.empty() && tree_.back().node->is_array()
                       ? index_path(tree_.back().path, tree_.back().node->size())
                       : member_path(tree_.back().path, tree_.back().pending_key);
        case Where::kRequests:
            return request_path();
        case Where::kRequest:
            return member_path(request_path(), field_name_);
        case Where::kColumns:
            return member_path("$.columns", column_name_);
        case Where::kColumn: {
            return index_path(member_path("$.columns", column_name_), column_size());
        }
        default:
            return "$";
    }
}

bool TraceReader::start_object(std::size_t) {
    switch (where_) {
        case Where::kStart:
            where_ = Where::kTop;
            return true;
        case Where::kTop:
            top_value_start(true, false, nullptr);
            return true;
        case Where::kTree:
            tree_insert(Json::object(), true);
            return true;
        case Where::kRequests:
            where_ = Where::kRequest;
            has_tick_ = has_cost_ = has_key_ = has_duration_ = false;
            cost_ = 1;
            duration_ = 0;
            key_.clear();
            return true;
        case Where::kRequest:
            wrong_type("a request field", "a number or a string", "an object");
        case Where::kColumn:
            wrong_type("a column value", "a number or a string", "an object");
        default:
            wrong_type("this value", "an array", "an object");
    }
}

bool TraceReader::start_array(std::size_t) {
    switch (where_) {
        case Where::kStart:
            throw TraceProblem{"$", "not-object",
                               "a trace file must hold a JSON object, not an array"};
        case Where::kTop:
            top_value_start(false, true, nullptr);
            return true;
        case Where::kTree:
            tree_insert(Json::array(), true);
            return true;
        case Where::kColumns:
            where_ = Where::kColumn;
            return true;
        case Where::kRequests:
            fail("wrong-type", "each request must be an object like {\"tick\": 6}, not an array");
        default:
            wrong_type("this value", "a number or a string", "an array");
    }
}

bool TraceReader::key(std::string& name) {
    switch (where_) {
        case Where::kTop:
            if (!top_seen_.insert(name).second) {
                top_key_ = name;
                fail("duplicate-field", "the field " + quote_text(name) + " appears twice");
            }
            top_key_ = name;
            return true;
        case Where::kTree: {
            TreeFrame& frame = tree_.back();
            frame.pending_key = name;
            if (!frame.seen.insert(name).second) {
                fail("duplicate-field", "the field " + quote_text(name) + " appears twice");
            }
            return true;
        }
        case Where::kRequest: {
            field_name_ = name;
            bool* seen = nullptr;
            if (name == "tick") {
                field_ = Field::kTick, seen = &has_tick_;
            } else if (name == "cost") {
                field_ = Field::kCost, seen = &has_cost_;
            } else if (name == "key") {
                field_ = Field::kKey, seen = &has_key_;
            } else if (name == "duration") {
                field_ = Field::kDuration, seen = &has_duration_;
            } else {
                fail("unknown-field",
                     "a request has only \"tick\", \"cost\", \"key\" and \"duration\", not " +
                         quote_text(name));
            }
            if (*seen) {
                fail("duplicate-field", "the field " + quote_text(name) + " appears twice");
            }
            *seen = true;
            return true;
        }
        case Where::kColumns: {
            column_name_ = name;
            RawColumns& c = out_.columns;
            bool* seen = nullptr;
            if (name == "tick_deltas") {
                column_ = Column::kTickDeltas, seen = &c.has_tick_deltas;
            } else if (name == "costs") {
                column_ = Column::kCosts, seen = &c.has_costs;
            } else if (name == "keys") {
                column_ = Column::kKeys, seen = &c.has_keys;
            } else if (name == "key_table") {
                column_ = Column::kKeyTable, seen = &c.has_key_table;
            } else if (name == "durations") {
                column_ = Column::kDurations, seen = &c.has_durations;
            } else {
                fail("unknown-field",
                     "columns are \"tick_deltas\", \"costs\", \"keys\", \"key_table\" and "
                     "\"durations\", not " +
                         quote_text(name));
            }
            if (*seen) {
                fail("duplicate-field", "the column " + quote_text(name) + " appears twice");
            }
            *seen = true;
            return true;
        }
        default:
            return true;
    }
}

bool TraceReader::end_object() {
    switch (where_) {
        case Where::kTop:
            where_ = Where::kDone;
            return true;
        case Where::kTree:
            tree_.pop_back();
            if (tree_.empty()) {
                out_.fields.get_ref<Json::object_t&>().emplace_back(top_key_,
                                                                    std::move(tree_root_));
                where_ = Where::kTop;
            }
            return true;
        case Where::kRequest:
            finish_request();
            where_ = Where::kRequests;
            return true;
        case Where::kColumns:
            where_ = Where::kTop;
            return true;
        default:
            return true;
    }
}

bool TraceReader::end_array() {
    switch (where_) {
        case Where::kTree:
            tree_.pop_back();
            if (tree_.empty()) {
                out_.fields.get_ref<Json::object_t&>().emplace_back(top_key_,
                                                                    std::move(tree_root_));
                where_ = Where::kTop;
            }
            return true;
        case Where::kRequests:
            where_ = Where::kTop;
            return true;
        case Where::kColumn:
            adopt_preparsed();
            where_ = Where::kColumns;
            return true;
        default:
            return true;
    }
}

void TraceReader::adopt_preparsed() {
    // A preparsed column reaches the parser blanked, as an empty array.
    RawColumns& c = out_.columns;
    if (column_ == Column::kTickDeltas && preparsed_.tick_deltas && c.tick_deltas.empty()) {
        c.tick_deltas = std::move(*preparsed_.tick_deltas);
    } else if (column_ == Column::kCosts && preparsed_.costs && c.costs.empty()) {
        c.costs = std::move(*preparsed_.costs);
    } else if (column_ == Column::kKeys && preparsed_.keys && c.keys.empty()) {
        c.keys = std::move(*preparsed_.keys);
    }
}

void TraceReader::top_value_start(bool is_object, bool is_array, const JsonValue* scalar) {
    if (top_key_ == "requests") {
        if (!is_array) {
            fail("wrong-type", "\"requests\" must be an array of request objects");
        }
        out_.has_requests = true;
        where_ = Where::kRequests;
        return;
    }
    if (top_key_ == "columns") {
        if (!is_object) {
            fail("wrong-type", "\"columns\" must be an object of arrays");
        }
        out_.has_columns = true;
        where_ = Where::kColumns;
        return;
    }
    count_other_value();
    if (scalar) {
        // Checked at once so that a file of another kind or a newer version is named as such
        // before anything in it is judged by this version's rules.
        if (top_key_ == "format") {
            check_format(*scalar);
        } else if (top_key_ == "version") {
            check_version(*scalar);
        }
        out_.fields.get_ref<Json::object_t&>().emplace_back(top_key_, scalar->to_json());
        return;
    }
    tree_root_ = is_object ? Json::object() : Json::array();
    tree_.push_back({&tree_root_, member_path("$", top_key_), {}, {}});
    where_ = Where::kTree;
}

void TraceReader::count_other_value() {
    if (++other_values_ > kMaxOtherValues) {
        fail("too-many-values", "a trace file holds at most " + std::to_string(kMaxOtherValues) +
                                    " values besides its requests");
    }
}

void TraceReader::tree_insert(Json node, bool container) {
    count_other_value();
    if (container) {
        // Copying, printing and freeing JSON trees recurse, and each level keeps its path for
        // messages: a bound keeps a hostile file from exhausting the stack or the memory. Real
        // trace files nest four levels at most.
        if (tree_.size() >= kMaxNesting) {
            fail("too-deep",
                 "values nest more than " + std::to_string(kMaxNesting) + " levels deep");
        }
    }
    TreeFrame& frame = tree_.back();
    Json* inserted = nullptr;
    if (frame.node->is_array()) {
        frame.node->push_back(std::move(node));
        inserted = &frame.node->back();
    } else {
        // Appended directly: duplicates were refused in key(), and ordered_json's own insert
        // searches linearly, which a file with many members would turn quadratic.
        auto& members = frame.node->get_ref<Json::object_t&>();
        members.emplace_back(frame.pending_key, std::move(node));
        inserted = &members.back().second;
    }
    if (container) {
        const std::string path = frame.node->is_array()
                                     ? index_path(frame.path, frame.node->size() - 1)
                                     : member_path(frame.path, frame.pending_key);
        tree_.push_back({inserted, path, {}, {}});
    }
}

bool TraceReader::value(const JsonValue& v) {
    switch (where_) {
        case Where::kStart:
            throw TraceProblem{
                "$", "not-object",
                std::string("a trace file must hold a JSON object, not ") + v.kind_name()};
        case Where::kTop:
            top_value_start(false, false, &v);
            return true;
        case Where::kTree:
            tree_insert(v.to_json(), false);
            return true;
        case Where::kRequest:
            request_value(v);
            return true;
        case Where::kColumn:
            column_value(v);
            return true;
        case Where::kRequests:
            fail("wrong-type",
                 std::string("each request must be an object like {\"tick\": 6}, not ") +
                     v.kind_name());
        default:
            fail("wrong-type", std::string("\"columns\" holds arrays, not ") + v.kind_name());
    }
}

namespace {

RawTraceFile parse_trace(std::string_view input, PreparsedColumns& preparsed) {
    TraceReader reader(input, preparsed);
    nlohmann::json::sax_parse(input.begin(), input.end(), &reader);
    return std::move(reader).take();
}

}  // namespace

RawTraceFile read_trace_json(std::string_view text) {
    PreparsedColumns preparsed = preparse_columns(text);
    std::optional<RawTraceFile> raw;
    if (!preparsed.any()) {
        raw = parse_trace(text, preparsed);
    } else {
        // The JSON parser reads the rest without the columns read already. Only a syntax error
        // is located by its position in the text, so a problem is looked for again with the
        // columns blanked instead, where positions are those of the file.
        try {
            raw = parse_trace(without_columns(text, preparsed), preparsed);
        } catch (const TraceProblem&) {
            PreparsedColumns again = preparse_columns(text);
            parse_trace(blank_columns(text, again), again);
            throw;  // the same document without blanks: the same problem, in theory
        }
    }
    // nlohmann's lexer takes a NUL byte for the end of the input, so the parse above stops at the
    // first one and accepts whatever follows it (a second document, say). A NUL is never valid
    // inside a document, so one found here can only come after its end.
    if (const std::size_t nul = text.find('\0'); nul != std::string_view::npos) {
        throw TraceProblem{line_column(text, nul + 1), "not-json",
                           "not valid JSON: a NUL byte after the end of the document"};
    }
    return std::move(*raw);
}

}  // namespace ratelab::io::detail
