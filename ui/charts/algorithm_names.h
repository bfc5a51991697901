#pragma once

#include <QString>
#include <string_view>

#include "ratelab/key_figures.h"

namespace ratelab::ui {

/// The display name of an algorithm, e.g. "Token bucket", from the core's registry (translatable).
QString algorithmName(std::string_view id);
/// What a lane is called: its own label, else its algorithm's (translated) display name.
/// `label` is the run's or series' label, which the core fills with the English name when
/// the lane has none.
QString laneName(std::string_view id, std::string_view label);
/// The badge of a library preset's lane: the library's short name and the version it
/// reproduces, "nginx 1.22.1"; empty for RateLab's own algorithms.
QString libraryBadge(std::string_view id);
/// A key as views name it: the default key "" reads as "(default key)", and a long key is cut
/// to what a label can hold.
QString keyName(std::string_view key);
/// What a lane's headline burst says: "6 in 10 ticks > L" for one key at the trace's L; with
/// `several_keys` the worst key's against its own L, "pro: 9 in 10 ticks > 8" or "free: 2 in 10
/// ticks"; for a sum over keys without key figures, "14 in 10 ticks, all keys".
QString judgedBurstText(const SimulationResult& result, const JudgedBurst& judged,
                        bool several_keys);
/// The core's one-sentence summary of how the algorithm decides.
QString algorithmSummary(std::string_view id);

}  // namespace ratelab::ui
