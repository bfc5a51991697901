#include "inline_json.h"

namespace ratelab::io::detail {

std::string json_string(const std::string& text) {
    return nlohmann::ordered_json(text).dump();
}

std::string inline_json(const nlohmann::ordered_json& value) {
    std::string out;
    if (value.is_object()) {
        out += '{';
        for (auto it = value.begin(); it != value.end(); ++it) {
            out += it == value.begin() ? "" : ", ";
            out += json_string(it.key()) + ": " + inline_json(it.value());
        }
        out += '}';
    } else if (value.is_array()) {
        out += '[';
        for (auto it = value.begin(); it != value.end(); ++it) {
            out += it == value.begin() ? "" : ", ";
            out += inline_json(*it);
        }
        out += ']';
    } else {
        out = value.dump();
    }
    return out;
}

}  // namespace ratelab::io::detail
