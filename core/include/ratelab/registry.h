#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ratelab/algorithm.h"
#include "ratelab/parameters.h"

namespace ratelab {

/// A state that refills linearly up to a ceiling, such as a token bucket's tokens: what the
/// charts draw as its level.
struct LevelLaw {
    std::int64_t capacity = 0;  ///< the ceiling
    Rational slope;             ///< refill per tick
};

/// How a shaper lets accepted cost through: one cost unit every `spacing` ticks, from a queue
/// of at most `capacity` units.
struct ShaperLaw {
    Rational spacing;
    std::int64_t capacity = 0;
};

/// What one key's state holds, counted in numbers as the algorithm is usually implemented: a
/// few fixed numbers, and for some one more per request they still remember.
struct StateSize {
    enum class Grows : std::uint8_t {
        no,
        per_request_in_window,  ///< a timestamp per request of the last W ticks (a log)
        per_queued_request,     ///< each request waiting in its queue (a shaper)
    };
    int fixed = 0;
    Grows grows = Grows::no;
    std::string what;  ///< in words: "the current window's start and its count"
};

/// The plain engine that specifies an algorithm's fast one (core/src/reference_engine.h): every
/// answer decided again from the first request, one state per key, with no checkpoints.
struct ReferenceEngine {
    /// What Algorithm::run() must give (see simulate_reference()).
    std::function<AlgorithmRun(const Trace&, const Params&)> run;
    /// What Algorithm::state_at() must give.
    std::function<LimiterState(const Trace&, const Params&, KeyId, Tick)> state_at;
    /// What Algorithm::explain() must give.
    std::function<Explanation(const Trace&, const Params&, std::size_t)> explain;
};

/// A registered algorithm: stable id, display name, and a factory.
struct AlgorithmInfo {
    std::string id;       ///< stable, e.g. "token_bucket"
    std::string name;     ///< for display, e.g. "Token bucket"
    std::string summary;  ///< one sentence on how it decides
    int order = 0;        ///< position in listings; lower first
    /// True for a shaper: it delays accepted requests, and its runs carry release times.
    bool releases = false;
    /// A library preset reproduces a rate limiting library, quirks included: its name, e.g.
    /// "golang.org/x/time/rate", and the version reproduced. Empty for RateLab's own algorithms.
    std::string library;
    std::string library_version;
    /// Presets are lanes one adds: they are not among the default lanes or Registry::all().
    bool is_preset() const { return !library.empty(); }
    /// RateLab's own lanes that are never default lanes either (the concurrency limit, which
    /// limits something other than rate): listed by Registry::opt_in(), not all().
    bool opt_in = false;
    /// Every parameter it reads, declared once here (ratelab/parameters.h).
    std::vector<ParameterInfo> parameters;
    /// Shapers: how they release, for a key with these limits (see ShaperLaw).
    std::function<ShaperLaw(const Limits&)> shaper_law;
    /// Algorithms whose state is a refilling level (see LevelLaw), for a key with these limits;
    /// empty for the others.
    std::function<LevelLaw(const Limits&)> level_law;
    /// What a key's state holds, when the algorithm says (see StateSize).
    std::optional<StateSize> state_size;
    std::function<std::unique_ptr<Algorithm>()> make;
    /// The plain engine that specifies make()'s.
    ReferenceEngine reference;
};

/// Every parameter `algorithm` declares, resolved for a key with `limits`: its override when
/// there is one, else the declared default.
ParamValues resolved_params(const AlgorithmInfo& algorithm, const Limits& limits);

/// Maps stable ids to algorithms. Each algorithm's own source file registers it; the list of
/// files is collected by the build, so adding a variant is adding a file.
class Registry {
public:
    static Registry& instance();

    void add(AlgorithmInfo info);
    /// Nothing if `id` is unknown.
    const AlgorithmInfo* find(std::string_view id) const;
    /// RateLab's own algorithms in display order: the default lanes, and every listing of
    /// "all algorithms" (library presets are apart, see presets()).
    std::vector<const AlgorithmInfo*> all() const;
    /// The ids of all().
    std::vector<std::string> ids() const;
    /// The library presets in display order (AlgorithmInfo::is_preset()).
    std::vector<const AlgorithmInfo*> presets() const;
    /// RateLab's own lanes one adds, never default lanes (AlgorithmInfo::opt_in).
    std::vector<const AlgorithmInfo*> opt_in() const;

private:
    Registry();
    std::vector<AlgorithmInfo> infos_;
};

}  // namespace ratelab
