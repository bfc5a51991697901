#pragma once

#include <string>
#include <string_view>

namespace ratelab::io {

/// `text` made safe to print on a terminal: control characters (C0, DEL and the C1 range
/// U+0080 to U+009F, which terminals also obey) and bytes that are not UTF-8 are shown as
/// \xNN or \u00NN, so a trace name, key, file name or skipped line can neither move the cursor,
/// change colours nor forge a line of output. Printable text, non-ASCII included, is unchanged.
std::string terminal_safe(std::string_view text);

}  // namespace ratelab::io
