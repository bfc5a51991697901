#pragma once

#include <QString>
#include <string_view>

namespace ratelab::ui {

/// The display name of an algorithm, e.g. "Token bucket", from the core's registry (translatable).
QString algorithmName(std::string_view id);
/// What a lane is called: its own label, else its algorithm's (translated) display name.
/// `label` is the run's or series' label, which the core fills with the English name when
/// the lane has none.
QString laneName(std::string_view id, std::string_view label);
/// The core's one-sentence summary of how the algorithm decides.
QString algorithmSummary(std::string_view id);

}  // namespace ratelab::ui
