#pragma once
// The registry entry of a policy: what it declares (its parameters, whether it shapes, its
// level or shaper law), read once from the policy, and a factory for its BasicAlgorithm.
// Included at the end of basic_algorithm.h.

#include <memory>
#include <string>

#include "basic_algorithm.h"
#include "reference_engine.h"

namespace ratelab::detail {

/// The registry entry for policy P.
template <class P>
AlgorithmInfo make_info(std::string name, std::string summary, int order) {
    AlgorithmInfo info;
    info.id = std::string(P::kId);
    info.name = std::move(name);
    info.summary = std::move(summary);
    info.order = order;
    info.releases = P::kShapes;
    info.parameters = declared<P>();
    if constexpr (requires(const typename P::Config& c) { P::shaper_law(c); }) {
        info.shaper_law = [](const Limits& l) { return P::shaper_law(P::configure(l)); };
    }
    if constexpr (requires(const typename P::Config& c) { P::level_law(c); }) {
        info.level_law = [](const Limits& l) { return P::level_law(P::configure(l)); };
    }
    if constexpr (requires { P::state_size(); }) {
        info.state_size = P::state_size();
    }
    info.make = [] { return std::make_unique<BasicAlgorithm<P>>(); };
    info.reference.run = [](const Trace& trace, const Params& params) {
        return reference_run<P>(trace, params);
    };
    info.reference.state_at = [](const Trace& trace, const Params& params, KeyId key, Tick at) {
        return reference_state_at<P>(trace, params, key, at);
    };
    info.reference.explain = [](const Trace& trace, const Params& params, std::size_t index) {
        return reference_explain<P>(trace, params, index);
    };
    return info;
}

/// The registry entry for policy P, a preset reproducing `library` at `version`.
template <class P>
AlgorithmInfo make_preset_info(std::string name, std::string summary, int order,
                               std::string library, std::string version) {
    AlgorithmInfo info = make_info<P>(std::move(name), std::move(summary), order);
    info.library = std::move(library);
    info.library_version = std::move(version);
    return info;
}

}  // namespace ratelab::detail
