#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ratelab/algorithm.h"
#include "ratelab/model.h"

namespace ratelab {

struct SimulationResult;

/// One point of a drawn line, in ticks (x) and the series' unit (y). Only for display: the
/// values are computed exactly and converted at the end.
struct PlotPoint {
    double x = 0.0;
    double y = 0.0;
    friend bool operator==(const PlotPoint&, const PlotPoint&) = default;
};

/// Where a block of kExtremesBlock vertices of a drawn line has its first lowest and its first
/// highest value, as offsets into the block: decimation takes a whole block from these two.
struct BlockExtremes {
    std::uint32_t low = 0;
    std::uint32_t high = 0;
};
inline constexpr std::size_t kExtremesBlock = 256;

/// A whole-number quantity that changes only at ticks: `values[i]` holds from `ticks[i]` until
/// the next change, and the value is 0 before the first change. Only real changes are stored,
/// so the size grows with the number of events, not with the number of ticks spanned.
struct StepSeries {
    std::vector<Tick> ticks;  ///< strictly increasing
    std::vector<std::int64_t> values;

    bool empty() const { return ticks.empty(); }
    /// The value once every change at a tick <= `tick` has happened.
    std::int64_t value_at(Tick tick) const;
    /// The largest value at any tick <= `tick` (0 when there is none).
    std::int64_t max_until(Tick tick) const;
    std::int64_t max() const;
    /// Fills `extremes` for the line as drawn (two vertices a change: the value before and
    /// after), which lets decimate() read a few entries per block rather than every change.
    void summarize();

    /// Each block's extremes once summarize() has filled them; decimate() reads every change
    /// without them, or when they no longer fit the series. Not part of its value.
    std::vector<BlockExtremes> extremes;

    friend bool operator==(const StepSeries& a, const StepSeries& b) {
        return a.ticks == b.ticks && a.values == b.values;
    }
};

/// A quantity that moves linearly between events, such as a refilling bucket: a polyline whose
/// vertices are in non-decreasing x. Two vertices at the same x are a jump; the later one is the
/// value from x on. Before the first vertex the first y holds, after the last the last y.
struct LevelSeries {
    std::vector<PlotPoint> vertices;

    bool empty() const { return vertices.empty(); }
    /// The value at `time` after every jump at `time`.
    double value_at(double time) const;
    /// As StepSeries::summarize().
    void summarize();

    /// As StepSeries::extremes.
    std::vector<BlockExtremes> extremes;

    friend bool operator==(const LevelSeries& a, const LevelSeries& b) {
        return a.vertices == b.vertices;
    }
};

/// One key's own queue or bucket level in one lane (SeriesOptions::key_lines).
struct KeySeries {
    KeyId key = 0;
    /// Shapers: the key's cost units accepted but not yet released at tick t.
    StepSeries queue;
    /// Lanes with a level law: the key's tokens or allowance.
    LevelSeries level;
    /// The key's own queue size or level ceiling (its tier's), 0 where it has none.
    std::int64_t queue_capacity = 0;
    std::int64_t level_capacity = 0;

    friend bool operator==(const KeySeries&, const KeySeries&) = default;
};

/// Everything the charts show about one lane.
struct AlgorithmSeries {
    std::string id;         ///< the lane's algorithm
    std::string label;      ///< the lane's label
    bool releases = false;  ///< a shaper: `queue` and `delays` are filled
    /// Accepted cost in the trailing window (t - W, t] at each tick t. For a shaper (leaky
    /// bucket) it counts released cost units by the tick they leave in, which is what reaches the
    /// protected service.
    StepSeries load;
    /// Accepted and rejected cost, summed over every request with tick <= t.
    StepSeries accepted;
    StepSeries rejected;
    /// Shapers only: cost units accepted but not yet released at tick t, over all keys.
    StepSeries queue;
    /// Shapers only: for each accepted request, x = its tick and y = how long it waited.
    std::vector<PlotPoint> delays;
    /// For an algorithm with a level law (AlgorithmInfo::level_law): a token bucket's tokens,
    /// GCRA's allowance (the token-bucket equivalent, B less one per emission interval the
    /// schedule runs ahead); empty for the others. For one key only.
    LevelSeries level;
    /// The level's ceiling (capacity or burst), 0 when there is no level.
    std::int64_t level_capacity = 0;
    /// Shapers: the queue's capacity under the base limits (the one key's own when one is
    /// shown), 0 for the others.
    std::int64_t queue_capacity = 0;
    /// As the core measured it over the whole trace; with keys chosen (SeriesOptions::keys), or
    /// one key under a tier of its own, the worst of what the series count: one key's own worst
    /// burst, or the load's peak over several.
    Burst worst_burst;
    /// For a shaper or a lane with a level law, one entry per key of SeriesOptions::key_lines
    /// (in that order); empty for the other lanes.
    std::vector<KeySeries> by_key;
};

/// The most steps one request's release takes in a shaper's series. A costlier request's units
/// leave in that many runs, each counted at the tick its last unit leaves: the series stay within
/// memory for a trace of a few requests of 10^6 units, and are exact for every request of up to
/// this many units (or ticks). Reports, tables and worst bursts count every unit exactly.
inline constexpr std::int64_t kMaxReleaseSteps = 4096;

struct SeriesOptions {
    /// The key whose bucket level is traced; default: the key with the most requests (of those
    /// shown).
    std::optional<KeyId> level_key;
    /// The keys whose requests the series count; empty: every key. Keys are decided apart, so
    /// the series of a few keys are those of a trace of their requests alone. Ids the trace does
    /// not have are ignored.
    std::vector<KeyId> keys;
    /// Keys whose queue and bucket level are also traced one by one (AlgorithmSeries::by_key),
    /// beside the queue over every key counted and the level of `level_key`. At most
    /// kMostKeyLines are traced; ids the trace does not have are ignored.
    std::vector<KeyId> key_lines;
    /// Threads that compute lanes side by side; 0 picks one per core. The series do not depend
    /// on it.
    unsigned threads = 0;
    /// Only what ResultSeries holds besides the lanes' lines (from, to, the keys, each lane's
    /// id, label and worst burst as the core measured it): one pass without keeping a change,
    /// for a time axis over the whole trace. The lines stay empty.
    bool only_span = false;
    /// When given, compute_series() stops at its next stretch of requests by throwing
    /// SimulationCancelled once `control->stop` is set (the app drops series no longer wanted).
    RunControl* control = nullptr;
};

/// The most keys SeriesOptions::key_lines traces: a line each is as many as a chart can tell
/// apart.
inline constexpr std::size_t kMostKeyLines = 8;

/// The time series of a simulation, ready to be decimated and drawn.
struct ResultSeries {
    /// The span worth showing: from the first request to the moment every load has fallen back
    /// to zero (the last arrival or release, plus W).
    Tick from = 0;
    Tick to = 0;
    std::int64_t limit = 0;  ///< L of the base limits, or of `one_key`, for reference lines
    Tick window = 0;         ///< W of the base limits, or of `one_key`: the load's window
    KeyId level_key = 0;
    /// The keys counted, sorted (SeriesOptions::keys less unknown ids); empty: every key.
    std::vector<KeyId> keys;
    /// The one key every counted request has, when there is one: then `limit` and `window` are
    /// that key's own (its tier's), and each lane's worst burst is that key's.
    std::optional<KeyId> one_key;
    /// How many keys made a request in the trace (whether counted or not).
    std::size_t keys_in_trace = 0;
    /// Whether the series add up requests of several keys, each held to its own limit, so that
    /// no one L judges them.
    bool summed = false;
    /// False when the runs kept no decisions: only worst bursts are known then.
    bool has_decisions = false;
    std::vector<AlgorithmSeries> algorithms;  ///< in the result's order

    const AlgorithmSeries* find(std::string_view id) const;
};

/// Computes every series of `result` in O(n log n) for n requests (O(n) when releases come in
/// order), independent of how many ticks the trace spans.
ResultSeries compute_series(const SimulationResult& result, const SeriesOptions& options = {});

/// Sliding-window sum: the total cost in (t - window, t] at each tick t, for events in
/// non-decreasing tick order. Exposed for tests and for callers with their own events.
StepSeries trailing_sum(const std::vector<Tick>& ticks, const std::vector<std::int64_t>& costs,
                        Tick window);

/// The largest accepted cost in any trailing window so far: the value a "worst burst" bar shows
/// while the clock is at `now`. Once `now` is past the series' end it is the core's worst burst.
std::int64_t worst_so_far(const AlgorithmSeries& series, Tick now, Tick end);

/// Reduces a series to at most about 4 points per pixel column over [from, to] (the first,
/// lowest, highest and last vertex of each column, in time order), which draws the same pixels
/// as the full series. Series with few vertices in range come back exactly. The result starts
/// at `from` and ends at `to`; `columns` >= 1.
std::vector<PlotPoint> decimate(const StepSeries& series, double from, double to, int columns);
std::vector<PlotPoint> decimate(const LevelSeries& series, double from, double to, int columns);
/// For scattered points in non-decreasing x: keeps at most the lowest and highest per column.
std::vector<PlotPoint> decimate(const std::vector<PlotPoint>& points, double from, double to,
                                int columns);

}  // namespace ratelab
