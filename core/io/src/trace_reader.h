#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include <nlohmann/json.hpp>

#include "column_fast_path.h"
#include "json_value.h"
#include "ratelab/io/trace_file.h"
#include "trace_problem.h"
#include "trace_sax.h"

namespace ratelab::io::detail {

using Json = nlohmann::ordered_json;

/// The single pass over the text. Small members go into a JSON tree; requests and columns are
/// checked and stored compactly as they stream past.
class TraceReader {
public:
    TraceReader(std::string_view text, PreparsedColumns& preparsed)
        : text_(text), preparsed_(preparsed) {}

    RawTraceFile take() && { return std::move(out_); }

    // nlohmann::json SAX interface.
    bool null() { return value(JsonValue{}); }
    bool boolean(bool b) { return value(JsonValue::of_bool(b)); }
    bool number_integer(std::int64_t v) { return value(JsonValue::of_negative(v)); }
    bool number_unsigned(std::uint64_t v) { return value(JsonValue::of_unsigned(v)); }
    bool number_float(double, const std::string& raw) { return value(JsonValue::of_float(raw)); }
    bool string(std::string& s) { return value(JsonValue::of_string(s)); }
    bool binary(nlohmann::json::binary_t&) { return value(JsonValue{}); }
    bool start_object(std::size_t);
    bool key(std::string& name);
    bool end_object();
    bool start_array(std::size_t);
    bool end_array();
    bool parse_error(std::size_t position, const std::string&,
                     const nlohmann::detail::exception& e);

private:
    enum class Where { kStart, kTop, kTree, kRequests, kRequest, kColumns, kColumn, kDone };
    enum class Field { kOther, kTick, kCost, kKey, kDuration };
    enum class Column { kTickDeltas, kCosts, kKeys, kKeyTable, kDurations };
    struct TreeFrame {
        Json* node;
        std::string path;
        std::string pending_key;
        std::unordered_set<std::string> seen;
    };

    bool value(const JsonValue& v);
    void top_value_start(bool is_object, bool is_array, const JsonValue* scalar);
    void tree_insert(Json node, bool container);
    void count_other_value();
    void request_value(const JsonValue& v);
    void finish_request();
    void column_value(const JsonValue& v);
    void adopt_preparsed();
    /// The entries read so far of the column being read.
    std::size_t column_size() const;
    void check_format(const JsonValue& v) const;
    void check_version(const JsonValue& v) const;
    std::string request_path() const {
        return index_path("$.requests", out_.requests.requests.size());
    }
    std::string location() const;
    [[noreturn]] void fail(std::string rule, std::string detail) const {
        throw TraceProblem{location(), std::move(rule), std::move(detail)};
    }
    [[noreturn]] void wrong_type(const char* what, const char* expected, const char* found) const {
        fail("wrong-type", std::string(what) + " must be " + expected + ", not " + found);
    }

    std::string_view text_;
    PreparsedColumns& preparsed_;
    Where where_ = Where::kStart;
    RawTraceFile out_;
    std::unordered_set<std::string> top_seen_;
    std::string top_key_;
    Json tree_root_;
    std::vector<TreeFrame> tree_;
    std::size_t other_values_ = 0;  // outside requests and columns, against kMaxOtherValues
    // Object form.
    Field field_ = Field::kOther;
    std::string field_name_;
    bool has_tick_ = false, has_cost_ = false, has_key_ = false, has_duration_ = false;
    Tick tick_ = 0, last_tick_ = 0, duration_ = 0;
    std::uint32_t cost_ = 1;
    std::string key_;
    std::unordered_map<std::string, KeyId> key_ids_{{std::string(), KeyId{0}}};
    // Columnar form.
    Column column_ = Column::kTickDeltas;
    std::string column_name_;
    std::int64_t delta_sum_ = 0;
};

}  // namespace ratelab::io::detail
