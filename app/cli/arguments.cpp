#include <charconv>

#include "command.h"

namespace ratelab::cli {

std::optional<std::string> Arguments::get(const std::string& name) const {
    const auto it = options.find(name);
    return it == options.end() ? std::nullopt : std::optional<std::string>(it->second);
}

std::optional<std::int64_t> Arguments::integer(const std::string& name, std::int64_t min,
                                               std::int64_t max) const {
    const auto text = get(name);
    if (!text) {
        return std::nullopt;
    }
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text->data(), text->data() + text->size(), value);
    if (text->empty() || error != std::errc() || end != text->data() + text->size() ||
        value < min || value > max) {
        throw UsageError("--" + name + " must be a whole number from " + std::to_string(min) +
                         " to " + std::to_string(max) + ", not \"" + *text + "\"");
    }
    return value;
}

std::vector<std::string> Arguments::all(const std::string& name) const {
    const auto it = repeated.find(name);
    return it == repeated.end() ? std::vector<std::string>{} : it->second;
}

Arguments parse_arguments(const Command& command, const std::vector<std::string>& args) {
    Arguments parsed;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const std::string& arg = args[i];
        if (arg.size() < 2 || arg[0] != '-' || arg == "--") {
            parsed.positionals.push_back(arg);
            continue;
        }
        std::string name = arg.substr(arg[1] == '-' ? 2 : 1);
        std::optional<std::string> inline_value;
        if (const auto eq = name.find('='); eq != std::string::npos) {
            inline_value = name.substr(eq + 1);
            name.resize(eq);
        }
        const OptionSpec* spec = nullptr;
        for (const OptionSpec& option : command.options) {
            if (option.name == name || (name == "o" && option.name == "output")) {
                spec = &option;
            }
        }
        if (!spec && !command.open_options) {
            throw UsageError("unknown option " + arg + " (see ratelab-cli " + command.name +
                             " --help)");
        }
        const bool flag = spec && spec->value_name.empty();
        const std::string key = spec ? spec->name : name;
        if (flag) {
            if (inline_value) {
                throw UsageError("--" + key + " takes no value");
            }
            parsed.options[key] = "";
        } else if (inline_value) {
            parsed.options[key] = *inline_value;
        } else if (i + 1 < args.size()) {
            parsed.options[key] = args[++i];
        } else {
            throw UsageError("--" + key + " needs a value");
        }
        parsed.repeated[key].push_back(parsed.options[key]);
    }
    if (parsed.positionals.size() < command.min_positionals ||
        parsed.positionals.size() > command.max_positionals) {
        throw UsageError("usage: ratelab-cli " + command.usage);
    }
    return parsed;
}

std::string command_help(const Command& command) {
    std::string text = "Usage: ratelab-cli " + command.usage + "\n\n" + command.summary + "\n";
    if (!command.details.empty()) {
        text += "\n" + command.details + "\n";
    }
    if (!command.options.empty()) {
        text += "\nOptions:\n";
    }
    for (const OptionSpec& option : command.options) {
        std::string left = "  --" + option.name;
        if (option.name == "output") {
            left = "  -o, --output";
        }
        if (!option.value_name.empty()) {
            left += " " + option.value_name;
        }
        left.resize(std::max<std::size_t>(left.size() + 2, 28), ' ');
        text += left + option.help + "\n";
    }
    text += "  --help" + std::string(20, ' ') + "show this help\n";
    return text;
}

}  // namespace ratelab::cli
