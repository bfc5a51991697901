#include "ratelab/registry.h"

#include <algorithm>
#include <stdexcept>

namespace ratelab {

// Defined in the build-generated algorithm_list.cpp: calls every algorithm file's register_*.
void register_builtin_algorithms(Registry& registry);

Registry::Registry() {
    register_builtin_algorithms(*this);
}

Registry& Registry::instance() {
    static Registry registry;
    return registry;
}

void Registry::add(AlgorithmInfo info) {
    if (find(info.id) != nullptr)
        throw std::logic_error("algorithm registered twice: " + info.id);
    infos_.push_back(std::move(info));
    std::stable_sort(
        infos_.begin(), infos_.end(),
        [](const AlgorithmInfo& a, const AlgorithmInfo& b) { return a.order < b.order; });
}

ParamValues resolved_params(const AlgorithmInfo& algorithm, const Limits& limits) {
    const auto overrides = limits.overrides.find(algorithm.id);
    ParamValues values;
    for (const ParameterInfo& parameter : algorithm.parameters) {
        const ParamValue* set = nullptr;
        if (overrides != limits.overrides.end()) {
            if (const auto it = overrides->second.find(parameter.id);
                it != overrides->second.end()) {
                set = &it->second;
            }
        }
        values[parameter.id] = set != nullptr ? *set : parameter.default_for(limits.context());
    }
    return values;
}

const AlgorithmInfo* Registry::find(std::string_view id) const {
    const auto it = std::find_if(infos_.begin(), infos_.end(),
                                 [id](const AlgorithmInfo& info) { return info.id == id; });
    return it == infos_.end() ? nullptr : &*it;
}

std::vector<const AlgorithmInfo*> Registry::all() const {
    std::vector<const AlgorithmInfo*> result;
    result.reserve(infos_.size());
    for (const AlgorithmInfo& info : infos_) {
        if (!info.is_preset() && !info.opt_in)
            result.push_back(&info);
    }
    return result;
}

std::vector<std::string> Registry::ids() const {
    std::vector<std::string> result;
    for (const AlgorithmInfo* info : all())
        result.push_back(info->id);
    return result;
}

std::vector<const AlgorithmInfo*> Registry::presets() const {
    std::vector<const AlgorithmInfo*> result;
    for (const AlgorithmInfo& info : infos_) {
        if (info.is_preset())
            result.push_back(&info);
    }
    return result;
}

std::vector<const AlgorithmInfo*> Registry::opt_in() const {
    std::vector<const AlgorithmInfo*> result;
    for (const AlgorithmInfo& info : infos_) {
        if (info.opt_in && !info.is_preset())
            result.push_back(&info);
    }
    return result;
}

}  // namespace ratelab
