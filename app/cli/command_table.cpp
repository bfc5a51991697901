// The subcommands of ratelab-cli. Adding one: a new <name>_command.cpp defining
// `Command make_<name>_command()`, and its name in this list.
#include "command.h"

#define RATELAB_CLI_COMMANDS(X) \
    X(simulate)                 \
    X(compare)                  \
    X(sweep)                    \
    X(fleet)                    \
    X(validate)                 \
    X(generate)                 \
    X(import)                   \
    X(render)                   \
    X(quiz)                     \
    X(lesson)                   \
    X(algorithms)

namespace ratelab::cli {

#define RATELAB_DECLARE(name) Command make_##name##_command();
RATELAB_CLI_COMMANDS(RATELAB_DECLARE)
#undef RATELAB_DECLARE

const std::vector<Command>& commands() {
#define RATELAB_MAKE(name) make_##name##_command(),
    static const std::vector<Command> table = {RATELAB_CLI_COMMANDS(RATELAB_MAKE)};
#undef RATELAB_MAKE
    return table;
}

}  // namespace ratelab::cli
