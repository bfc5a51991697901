// Saving a document that no trace file can hold (text that is not UTF-8, as an import from a
// log in another encoding might produce) is refused with the place, and touches no file.
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include <unistd.h>

#include "catch.h"
#include "ratelab/io/trace_file.h"

namespace fs = std::filesystem;
using namespace ratelab;
using namespace ratelab::io;

namespace {

TraceDocument small_document() {
    TraceDocument doc;
    doc.name = "Small";
    TraceBuilder builder;
    builder.add(1);
    builder.add(2, 1, "alice");
    builder.add(3, 1, "bob");
    doc.trace = std::move(builder).take();
    return doc;
}

std::string file_text(const fs::path& file) {
    std::ifstream in(file, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

}  // namespace

TEST_CASE("hardening/save: text that is not UTF-8 is refused with its place") {
    struct Case {
        const char* what;
        std::function<void(TraceDocument&)> spoil;
        std::string location;
    };
    const Case cases[] = {
        {"name", [](TraceDocument& d) { d.name = "caf\xE9"; }, "$.name"},
        {"description", [](TraceDocument& d) { d.description = "\xC3"; }, "$.description"},
        {"request key", [](TraceDocument& d) { d.trace.keys[2] = "b\xFFob"; }, "$.requests[2].key"},
        {"tier", [](TraceDocument& d) { d.params.keys["\x80"] = Limits{}; }, "$.keys[\"\\x80\"]"},
        {"unknown field",
         [](TraceDocument& d) { d.unknown_fields["x-note"] = std::string("\xED\xA0\x80"); },
         "$.x-note"},
    };
    const fs::path dir =
        fs::temp_directory_path() / ("ratelab-hardening-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    const fs::path file = dir / "trace.json";
    for (const Case& c : cases) {
        INFO(c.what);
        TraceDocument doc = small_document();
        save_trace(doc, file);
        const std::string before = file_text(file);
        c.spoil(doc);
        try {
            (void)serialize_trace(doc);
            FAIL("serialized");
        } catch (const TraceFileError& error) {
            CHECK(error.rule() == "invalid-utf8");
            CHECK(error.location() == c.location);
        }
        try {
            save_trace(doc, file);
            FAIL("saved");
        } catch (const TraceFileError& error) {
            CHECK(error.rule() == "invalid-utf8");
            CHECK(error.file() == file.string());
            CHECK(std::string(error.what()).rfind(file.string() + ": " + c.location, 0) == 0);
        }
        CHECK(file_text(file) == before);  // the old file is untouched
        CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator()) == 1);
    }
    fs::remove_all(dir);
}

TEST_CASE("hardening/save: a key no request uses is checked too, and valid text passes") {
    TraceDocument doc = small_document();
    doc.name = "Élève — 東京";
    CHECK_NOTHROW(serialize_trace(doc));
    doc.trace.keys.push_back("\xFF");  // in the key table of the columnar form
    try {
        (void)serialize_trace(doc);
        FAIL("serialized");
    } catch (const TraceFileError& error) {
        CHECK(error.location() == "$.columns.key_table[3]");
    }
}
