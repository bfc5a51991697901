#pragma once

#include <QString>
#include <cstddef>
#include <cstdint>
#include <optional>

class QPalette;

#include "ratelab/rational.h"
#include "timeline/lane_retries.h"

namespace ratelab::ui {

struct Frame;

/// The core's ASCII arithmetic ("1 x 0.70", "5 <= 4", "12 - 1"), meant for terminals, with
/// the signs a reader knows from maths: ×, ≤, ≥ and −. Not escaped for rich text.
QString mathSigns(const std::string& text);

/// A duration in ticks and in seconds, e.g. "1.5 ticks (1.5 s)".
QString ticksAndSeconds(const Rational& ticks, std::int64_t tick_ms);

/// Rich text explaining why algorithm `lane` decided request `index` as it did: the state
/// before, the check with its numbers, the state after and the retry time. Asks the core.
/// `palette` is the tooltip's, for outcome colours that read on its background.
QString decisionTooltip(const Frame& frame, std::size_t lane, std::size_t index,
                        const QPalette& palette);
/// Rich text for retry `index` of `retries` (one lane's, in decision order) on lane `lane`:
/// which request it retries and its attempt number, what the lane answered, and the attempt
/// before it.
QString retryTooltip(const Frame& frame, std::size_t lane,
                     const std::vector<LaneRetries::Retry>& retries, std::size_t index,
                     const QPalette& palette);
/// Rich text describing one request of the trace and how to edit it.
QString requestTooltip(const Frame& frame, std::size_t index);
/// Rich text for requests [begin, end) drawn as one mark (a zoomed-out column, a pile on one
/// tick): the ticks they span and, in the trace row (`lane` -1), how many and their cost, or in
/// lane `lane`, how many it accepted and rejected and how many are not decided yet. With `key`,
/// only that key's requests among them (a sub-row of a lane split by key).
/// Rich text for the notes on the tick of note `first` of `notes`: the tick and each text.
QString noteTooltip(const std::vector<TraceNote>& notes, std::size_t first);
QString tallyTooltip(const Frame& frame, int lane, std::size_t begin, std::size_t end,
                     std::optional<KeyId> key = std::nullopt);

}  // namespace ratelab::ui
