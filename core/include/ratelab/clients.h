#pragma once
// Clients that answer back. Each request of a trace is an intent; a client policy decides
// whether and when a rejected intent is tried again. Attempts are generated per lane, because
// each lane rejects different requests, and decided one at a time through a Limiter in the
// order (tick, the intent's trace index, attempt number).

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "ratelab/responses.h"
#include "ratelab/simulation.h"

namespace ratelab {

/// How a client answers a rejection.
enum class ClientKind : std::uint8_t {
    give_up,      ///< never retries: today's simulate()
    immediate,    ///< retries on the next tick
    fixed,        ///< retries `delay` ticks later
    backoff,      ///< exponential backoff, with jitter
    retry_after,  ///< waits the Retry-After it was told (plus jitter); gives up on "never"
    paced,        ///< spreads its requests by the remaining quota and reset it was told
};

/// Jitter of a backoff, as in the AWS analysis "Exponential Backoff And Jitter".
enum class Jitter : std::uint8_t {
    none,   ///< wait w
    full,   ///< a random wait in [0, w]
    equal,  ///< ceil(w/2) plus a random wait in [0, floor(w/2)]
};

/// One client policy and its parameters. Waits are whole ticks, at least 1.
struct ClientPolicy {
    ClientKind kind = ClientKind::give_up;
    /// Attempts in all, the first included.
    std::int64_t max_attempts = 5;
    /// No attempt later than this many ticks after the intent's first attempt.
    std::optional<Tick> deadline;
    Tick delay = 1;  ///< fixed
    /// backoff: the first wait is `base`, each next one the previous times `factor` rounded up
    /// to a whole tick, none above `cap`.
    Tick base = 1;
    Rational factor = Rational(2);
    Tick cap = 1'000'000;
    Jitter jitter = Jitter::none;
    /// retry_after: a random number of ticks in [0, spread] added to the wait.
    Tick spread = 0;
    /// Seeds the jitter: the same seed gives the same waits, whatever the lane.
    std::uint64_t seed = 0;

    friend bool operator==(const ClientPolicy&, const ClientPolicy&) = default;
};

/// The policy of every key, with tiers that name their own.
struct ClientPolicies {
    ClientPolicy base;
    std::map<std::string, ClientPolicy, std::less<>> keys;

    const ClientPolicy& for_key(std::string_view key) const;
    friend bool operator==(const ClientPolicies&, const ClientPolicies&) = default;
};

/// Parses "POLICY[:NAME=VALUE,...]", e.g. "backoff:base=2,cap=60,jitter=full,seed=7": the
/// policy, or a one-line message naming the field and the rule it breaks.
std::variant<ClientPolicy, std::string> parse_client_policy(std::string_view text);
/// The policy's name as parse_client_policy() reads it.
std::string_view client_kind_name(ClientKind kind);

/// The wait before attempt `attempt + 1` of intent `intent`, after attempt `attempt` was
/// refused with `decision`; nothing when the policy does not retry (give_up, paced, or
/// retry_after told "never"). Paced clients wait on what they were told instead, see
/// run_clients().
std::optional<Tick> retry_wait(const ClientPolicy& policy, std::size_t intent, std::int64_t attempt,
                               const Decision& decision);

/// One attempt of an intent on one lane.
struct Attempt {
    std::size_t intent = 0;    ///< the index of the request in the trace
    std::int64_t attempt = 1;  ///< counted from 1
    Tick tick = 0;
    Decision decision;
    friend bool operator==(const Attempt&, const Attempt&) = default;
};

/// Time to success, from an intent's tick to its acceptance (a shaper's delay included), over
/// the served intents; all 0 when none was served. Nearest-rank percentiles.
struct TimeToSuccess {
    Rational p50;
    Rational p95;
    Rational max;
    friend bool operator==(const TimeToSuccess&, const TimeToSuccess&) = default;
};

/// What became of the intents on one lane.
struct IntentFigures {
    std::int64_t served = 0;
    std::int64_t abandoned = 0;
    /// Attempts per served intent (attempts of served intents over served intents); 0 when
    /// none was served.
    Rational attempts_per_success;
    /// Rejected attempts, of any intent, over served intents; 0 when none was served.
    Rational rejections_per_success;
    std::int64_t attempts = 0;    ///< every attempt made
    std::int64_t rejections = 0;  ///< every rejected attempt
    TimeToSuccess time_to_success;
    friend bool operator==(const IntentFigures&, const IntentFigures&) = default;
};

/// The attempts of one lane, in decision order, and the figures over its intents.
struct ClientRun {
    std::vector<Attempt> attempts;
    /// When asked for (or for paced clients): the response to each attempt, parallel to
    /// `attempts`; else empty.
    std::vector<Response> responses;
    /// Per intent: the position in `attempts` of its accepted attempt, or nothing.
    std::vector<std::optional<std::size_t>> served_by;
    IntentFigures intents;
};

struct ClientOptions {
    bool responses = false;  ///< fill ClientRun::responses
};

/// The attempts the clients of `policies` make on `lane` for the intents of `trace`.
/// `params` must be valid (validate()); the lane is configured as simulate() configures it.
ClientRun run_clients(const Trace& trace, const Params& params, const Lane& lane,
                      const ClientPolicies& policies, const ClientOptions& options = {});

/// The figures over the attempts of `run` (IntentFigures), for `trace`'s intents.
IntentFigures intent_figures(const Trace& trace, const ClientRun& run);

/// What a chart of a lane's clients draws, tick by tick from `first` on: attempts offered,
/// attempts accepted (goodput) and attempts rejected, each counted in attempts.
struct AttemptsPerTick {
    Tick first = 0;
    std::vector<std::int64_t> offered;
    std::vector<std::int64_t> accepted;
    std::vector<std::int64_t> rejected;
    friend bool operator==(const AttemptsPerTick&, const AttemptsPerTick&) = default;
};
/// `run`'s attempts per tick, from its first attempt's tick to its last's; empty without
/// attempts. One entry per tick of that span, so it suits spans a chart can show tick by tick.
AttemptsPerTick attempts_per_tick(const ClientRun& run);

}  // namespace ratelab
