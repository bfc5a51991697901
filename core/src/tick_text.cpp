#include "ratelab/tick_text.h"

namespace ratelab {

std::string ticks_text(std::string_view number) {
    return std::string(number) + (number == "1" ? " tick" : " ticks");
}

std::string ticks_text(std::int64_t ticks) {
    return ticks_text(std::to_string(ticks));
}

}  // namespace ratelab
