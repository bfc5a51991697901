#pragma once

#include <cassert>
#include <string_view>
#include <vector>

#include "ratelab/model.h"
#include "ratelab/parameters.h"

namespace ratelab::detail {

/// The parameters policy P declares (P::parameters(), none if it has no such function),
/// built once.
template <class P>
const std::vector<ParameterInfo>& declared() {
    static const std::vector<ParameterInfo> list = [] {
        if constexpr (requires { P::parameters(); }) {
            return P::parameters();
        } else {
            return std::vector<ParameterInfo>{};
        }
    }();
    return list;
}

/// Reads policy P's parameters for a key with `limits`: the key's override when it has one,
/// else the default its declaration derives from L and W. Values are valid (validate()).
template <class P>
class ParamReader {
public:
    explicit ParamReader(const Limits& limits) : limits_(limits) {
        const auto it = limits.overrides.find(P::kId);
        overrides_ = it == limits.overrides.end() ? nullptr : &it->second;
    }

    ParamValue value(std::string_view id) const {
        if (overrides_ != nullptr) {
            if (const auto it = overrides_->find(id); it != overrides_->end()) {
                return it->second;
            }
        }
        const ParameterInfo* info = find_parameter(declared<P>(), id);
        assert(info != nullptr && "a policy reads only parameters it declares");
        return info->default_for(limits_.context());
    }
    Rational rational(std::string_view id) const { return std::get<Rational>(value(id)); }
    std::int64_t whole(std::string_view id) const { return rational(id).num(); }
    bool flag(std::string_view id) const { return std::get<bool>(value(id)); }

private:
    const Limits& limits_;
    const ParamValues* overrides_ = nullptr;
};

}  // namespace ratelab::detail
