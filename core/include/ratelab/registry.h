#pragma once

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "ratelab/algorithm.h"

namespace ratelab {

/// Describes one parameter an algorithm reads, for help texts and the app's advanced panel.
struct ParameterInfo {
    std::string name;         ///< as in trace files, e.g. "capacity"
    std::string description;  ///< e.g. "tokens the bucket holds; default L"
};

/// A registered algorithm: stable id, display name, and a factory.
struct AlgorithmInfo {
    std::string id;       ///< stable, e.g. "token_bucket"
    std::string name;     ///< for display, e.g. "Token bucket"
    std::string summary;  ///< one sentence on how it decides
    int order = 0;        ///< position in listings; lower first
    std::vector<ParameterInfo> parameters;
    std::function<std::unique_ptr<Algorithm>()> make;
};

/// Maps stable ids to algorithms. Each algorithm's own source file registers it; the list of
/// files is collected by the build, so adding a variant is adding a file.
class Registry {
public:
    static Registry& instance();

    void add(AlgorithmInfo info);
    /// Nothing if `id` is unknown.
    const AlgorithmInfo* find(std::string_view id) const;
    /// All algorithms in display order.
    std::vector<const AlgorithmInfo*> all() const;
    std::vector<std::string> ids() const;

private:
    Registry();
    std::vector<AlgorithmInfo> infos_;
};

}  // namespace ratelab
