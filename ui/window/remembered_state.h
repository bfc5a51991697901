#pragma once

#include <optional>

#include "ratelab/model.h"

class QSettings;

namespace ratelab::ui {

class PlaybackClock;
class Session;

/// What RateLab remembers between runs besides the window layout: the last parameters (L, W,
/// the rejections option and the per-algorithm overrides) and the playback speed. Per-key tiers
/// are not kept: they belong to the trace file they came from. Values that do not make sense
/// (an edited or damaged settings file) are ignored, never applied.
namespace remembered {

/// The remembered parameters, or nothing on a first start or when they are not valid.
std::optional<Params> parameters(const QSettings& settings);
void setParameters(QSettings& settings, const Params& params);
/// The remembered playback speed if it is one the clock offers.
std::optional<double> speed(const QSettings& settings);

/// At start: puts the remembered parameters onto the document the session opened with (the
/// default scenario) without making it modified, and the remembered speed onto the clock.
void restore(const QSettings& settings, Session& session, PlaybackClock& clock);
/// At exit: remembers the current document's parameters and the clock's speed.
void save(QSettings& settings, const Session& session, const PlaybackClock& clock);

/// `params` with the built-in base limits and rejections option, keeping its per-key tiers.
Params withDefaultBase(Params params);

}  // namespace remembered
}  // namespace ratelab::ui
