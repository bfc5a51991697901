#pragma once

#include <QString>
#include <string_view>

namespace ratelab::ui {

/// The display name of an algorithm, e.g. "Token bucket", from the core's registry (translatable).
QString algorithmName(std::string_view id);
/// The core's one-sentence summary of how the algorithm decides.
QString algorithmSummary(std::string_view id);

}  // namespace ratelab::ui
