// Client policies: reading "POLICY[:NAME=VALUE,...]" and the wait each policy takes after a
// rejection. Jitter comes from a hash of (seed, intent, attempt) rather than a stream of random
// numbers, so a wait does not depend on the order in which attempts are decided, nor the lane.
#include <algorithm>
#include <array>
#include <charconv>
#include <limits>

#include "ratelab/clients.h"
#include "ratelab/limits.h"

namespace ratelab {
namespace {

constexpr std::array<std::pair<ClientKind, std::string_view>, 6> kKinds = {{
    {ClientKind::give_up, "give_up"},
    {ClientKind::immediate, "immediate"},
    {ClientKind::fixed, "fixed"},
    {ClientKind::backoff, "backoff"},
    {ClientKind::retry_after, "retry_after"},
    {ClientKind::paced, "paced"},
}};

/// The parameters each policy takes besides max_attempts and deadline.
std::vector<std::string_view> own_parameters(ClientKind kind) {
    switch (kind) {
        case ClientKind::fixed:
            return {"delay"};
        case ClientKind::backoff:
            return {"base", "factor", "cap", "jitter", "seed"};
        case ClientKind::retry_after:
            return {"spread", "seed"};
        case ClientKind::give_up:
        case ClientKind::immediate:
        case ClientKind::paced:
            break;
    }
    return {};
}

std::uint64_t mix(std::uint64_t x) {
    // splitmix64's finaliser: every input bit reaches every output bit.
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

/// A whole number in [0, top] drawn from (seed, intent, attempt); the modulo's bias is below
/// 2^-40 for the waits a client takes.
Tick draw(std::uint64_t seed, std::size_t intent, std::int64_t attempt, Tick top) {
    const std::uint64_t bits = mix(mix(mix(seed) ^ intent) ^ static_cast<std::uint64_t>(attempt));
    return static_cast<Tick>(bits % (static_cast<std::uint64_t>(top) + 1));
}

std::optional<std::int64_t> whole(std::string_view text, std::int64_t min, std::int64_t max) {
    std::int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc() || end != text.data() + text.size() || value < min || value > max)
        return std::nullopt;
    return value;
}

/// "2", "1.5" or "3/2".
std::optional<Rational> number(std::string_view text) {
    if (const auto exact = Rational::parse(text))
        return exact;
    const std::size_t point = text.find('.');
    if (point == std::string_view::npos || point == 0 || text.size() - point - 1 > 6)
        return std::nullopt;
    const auto integer = whole(text.substr(0, point), 0, 1'000'000);
    const auto fraction = whole(text.substr(point + 1), 0, 999'999);
    if (!integer || !fraction || text.size() == point + 1)
        return std::nullopt;
    std::int64_t scale = 1;
    for (std::size_t i = point + 1; i < text.size(); ++i)
        scale *= 10;
    return Rational(*integer * scale + *fraction, scale);
}

std::string join(const std::vector<std::string_view>& names) {
    std::string text;
    for (const std::string_view name : names)
        text += (text.empty() ? "" : ", ") + std::string(name);
    return text;
}

/// Sets one NAME=VALUE of `policy`; a message when it breaks a rule.
std::optional<std::string> set_field(ClientPolicy& policy, std::string_view name,
                                     std::string_view value) {
    const std::string field =
        std::string(client_kind_name(policy.kind)) + ": " + std::string(name) + " must be ";
    const std::string given = ", not \"" + std::string(value) + "\"";
    auto ticks = [&](Tick& into, Tick min) -> std::optional<std::string> {
        if (const auto parsed = whole(value, min, bounds::kMaxTick)) {
            into = *parsed;
            return std::nullopt;
        }
        return field + "a whole number of ticks from " + std::to_string(min) + " to " +
               std::to_string(bounds::kMaxTick) + given;
    };
    if (name == "max_attempts") {
        if (const auto parsed = whole(value, 1, 1000)) {
            policy.max_attempts = *parsed;
            return std::nullopt;
        }
        return field + "a whole number from 1 to 1000 (attempts in all, the first included)" +
               given;
    }
    if (name == "deadline") {
        Tick deadline = 0;
        if (auto error = ticks(deadline, 0))
            return error;
        policy.deadline = deadline;
        return std::nullopt;
    }
    const std::vector<std::string_view> own = own_parameters(policy.kind);
    if (std::find(own.begin(), own.end(), name) == own.end()) {
        std::vector<std::string_view> all = own;
        all.push_back("max_attempts");
        all.push_back("deadline");
        return std::string(client_kind_name(policy.kind)) + " takes no \"" + std::string(name) +
               "\" (it takes " + join(all) + ")";
    }
    if (name == "delay")
        return ticks(policy.delay, 1);
    if (name == "base")
        return ticks(policy.base, 1);
    if (name == "cap")
        return ticks(policy.cap, 1);
    if (name == "spread")
        return ticks(policy.spread, 0);
    if (name == "factor") {
        const auto parsed = number(value);
        if (!parsed || *parsed < Rational(1) || *parsed > Rational(1000) ||
            parsed->den() > 1'000'000)
            return field + "a number from 1 to 1000, such as 2, 1.5 or 3/2" + given;
        policy.factor = *parsed;
        return std::nullopt;
    }
    if (name == "seed") {
        std::uint64_t seed = 0;
        const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), seed);
        if (error != std::errc() || end != value.data() + value.size() || value.empty())
            return field + "a whole number from 0 to 18446744073709551615" + given;
        policy.seed = seed;
        return std::nullopt;
    }
    // jitter
    if (value == "none")
        policy.jitter = Jitter::none;
    else if (value == "full")
        policy.jitter = Jitter::full;
    else if (value == "equal")
        policy.jitter = Jitter::equal;
    else
        return field + "none, full or equal" + given;
    return std::nullopt;
}

}  // namespace

std::string_view client_kind_name(ClientKind kind) {
    for (const auto& [k, name] : kKinds) {
        if (k == kind)
            return name;
    }
    return "give_up";
}

const ClientPolicy& ClientPolicies::for_key(std::string_view key) const {
    const auto it = keys.find(key);
    return it == keys.end() ? base : it->second;
}

std::variant<ClientPolicy, std::string> parse_client_policy(std::string_view text) {
    const std::size_t colon = text.find(':');
    const std::string_view name = text.substr(0, colon);
    ClientPolicy policy;
    bool known = false;
    for (const auto& [kind, kind_name] : kKinds) {
        if (kind_name == name) {
            policy.kind = kind;
            known = true;
        }
    }
    if (!known) {
        return "the policy must be give_up, immediate, fixed, backoff, retry_after or paced, "
               "not \"" +
               std::string(name) + "\"";
    }
    if (colon == std::string_view::npos)
        return policy;
    std::string_view rest = text.substr(colon + 1);
    while (!rest.empty()) {
        const std::size_t comma = rest.find(',');
        const std::string_view item = rest.substr(0, comma);
        rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
        const std::size_t equals = item.find('=');
        if (equals == std::string_view::npos || equals == 0) {
            return std::string(name) + ": \"" + std::string(item) +
                   "\" must be NAME=VALUE, as in max_attempts=3";
        }
        if (auto error = set_field(policy, item.substr(0, equals), item.substr(equals + 1)))
            return *error;
    }
    if (policy.kind == ClientKind::backoff && policy.cap < policy.base)
        return "backoff: cap must be at least base (" + std::to_string(policy.base) + "), not " +
               std::to_string(policy.cap);
    return policy;
}

std::optional<Tick> retry_wait(const ClientPolicy& policy, std::size_t intent, std::int64_t attempt,
                               const Decision& decision) {
    switch (policy.kind) {
        case ClientKind::give_up:
        case ClientKind::paced:
            return std::nullopt;
        case ClientKind::immediate:
            return Tick{1};
        case ClientKind::fixed:
            return policy.delay;
        case ClientKind::retry_after: {
            if (decision.retry_never || !decision.retry_after)
                return std::nullopt;
            const Tick told = std::max<Tick>(1, decision.retry_after->ceil());
            return told + draw(policy.seed, intent, attempt, policy.spread);
        }
        case ClientKind::backoff:
            break;
    }
    // Each wait the previous times the factor, rounded up, so that waits stay whole ticks and
    // exact whatever the factor; the cap stops the growth before it can overflow.
    Tick wait = std::min(policy.base, policy.cap);
    for (std::int64_t n = 1; n < attempt && wait < policy.cap; ++n) {
        const Int128 scaled = static_cast<Int128>(wait) * policy.factor.num();
        const Int128 next = (scaled + policy.factor.den() - 1) / policy.factor.den();
        wait = next >= policy.cap ? policy.cap : static_cast<Tick>(next);
    }
    switch (policy.jitter) {
        case Jitter::full:
            wait = draw(policy.seed, intent, attempt, wait);
            break;
        case Jitter::equal:
            wait = (wait + 1) / 2 + draw(policy.seed, intent, attempt, wait / 2);
            break;
        case Jitter::none:
            break;
    }
    return std::max<Tick>(1, wait);
}

}  // namespace ratelab
