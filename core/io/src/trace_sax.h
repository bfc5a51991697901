#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "ratelab/model.h"

namespace ratelab::io::detail {

/// The columnar form as read, each value bounds-checked; cross-checks come later.
struct RawColumns {
    bool has_tick_deltas = false;
    bool has_costs = false;
    bool has_keys = false;
    bool has_key_table = false;
    bool has_durations = false;
    std::vector<std::int64_t> tick_deltas;
    std::vector<std::uint32_t> costs;
    std::vector<std::uint32_t> keys;
    std::vector<std::string> key_table;
    std::vector<Tick> durations;  ///< 0 for a request that sets none
};

/// A trace file after one streaming pass: the small top-level members as JSON, and the
/// requests, which may number millions, read straight into compact form.
struct RawTraceFile {
    nlohmann::ordered_json fields = nlohmann::ordered_json::object();
    bool has_requests = false;
    bool has_columns = false;
    Trace requests;  ///< object form, already checked (bounds, order, keys)
    RawColumns columns;
};

/// Parses `text` in one pass without building a DOM for the requests. Throws TraceProblem for
/// syntax errors (location line:column) and for bad requests (location a JSON path).
RawTraceFile read_trace_json(std::string_view text);

}  // namespace ratelab::io::detail
