#include "cli_support.h"

namespace ratelab::cli {

Command make_import_command() {
    return {"import",
            "(not yet available)",
            "import",
            "",
            {},
            0,
            0,
            false,
            [](const Arguments&, CommandIo&) -> int { throw UsageError("not yet available"); }};
}

}  // namespace ratelab::cli
