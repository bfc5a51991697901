// Both forms of one trace load to the same document, so saving in either form and loading
// again changes nothing (the fuzzers found a columnar file whose key table had entries no
// request used: they vanished on the way through the object form).
#include "catch.h"
#include "ratelab/io/trace_file.h"

using namespace ratelab;
using namespace ratelab::io;

TEST_CASE("hardening/round trip: the columnar form numbers keys as the object form does") {
    const TraceDocument columns = parse_trace(
        R"({"format": "ratelab-trace", "version": 1, "limit": 4, "window": 10,
            "columns": {"key_table": ["", "bob", "unused", "alice"],
                        "tick_deltas": [1, 1, 1, 1], "keys": [3, 1, 3, 0]}})",
        "columns.json");
    const TraceDocument objects = parse_trace(
        R"({"format": "ratelab-trace", "version": 1, "limit": 4, "window": 10,
            "requests": [{"tick": 1, "key": "alice"}, {"tick": 2, "key": "bob"},
                         {"tick": 3, "key": "alice"}, {"tick": 4}]})",
        "objects.json");
    CHECK(columns.trace.keys == std::vector<std::string>{"", "alice", "bob"});
    CHECK(columns == objects);
    const TraceDocument again = parse_trace(serialize_trace(columns), "saved.json");
    CHECK(again == columns);
}
