#pragma once
// Predict mode: before each request is decided, the learner says what each lane will do; the
// engine's decision then grades it. Pure bookkeeping over a finished simulation, so that the
// app's Predict panel only shows it.

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "ratelab/simulation.h"

namespace ratelab {

/// A round of predictions over the requests of one simulation, one request at a time, for a
/// chosen set of its lanes.
class PredictRound {
public:
    /// One lane's verdict on the request asked about.
    struct Outcome {
        std::size_t lane = 0;           ///< an index into the result's runs
        std::optional<bool> predicted;  ///< accepted (true) or rejected; nothing if not said
        bool accepted = false;          ///< what the lane did
        bool right() const { return predicted && *predicted == accepted; }
    };
    /// A prediction that was wrong: which request, which lane, what was said.
    struct Mistake {
        std::size_t request = 0;
        std::size_t lane = 0;
        bool predicted = false;
        friend bool operator==(const Mistake&, const Mistake&) = default;
    };
    struct Score {
        int right = 0;
        int asked = 0;  ///< predictions graded (a lane left unsaid is not counted)
        friend bool operator==(const Score&, const Score&) = default;
    };

    /// `lanes` are indexes into result->runs, in the order they are shown (empty: every lane).
    /// The round asks about requests from `first` on. Throws SimulationError for a lane out of
    /// range or a result without decisions.
    PredictRound(std::shared_ptr<const SimulationResult> result, std::vector<std::size_t> lanes,
                 std::size_t first = 0);

    const SimulationResult& result() const { return *result_; }
    const std::vector<std::size_t>& lanes() const { return lanes_; }
    /// Every request has been asked about (or skipped).
    bool finished() const { return request_ >= result_->trace->requests.size(); }
    /// The index of the request asked about.
    std::size_t request() const { return request_; }

    /// The prediction for the lane in slot `slot` (an index into lanes()).
    std::optional<bool> prediction(std::size_t slot) const;
    void predict(std::size_t slot, bool accepted);
    /// Nothing, then accepted, then rejected, then accepted again: what a digit key does.
    void toggle(std::size_t slot);

    bool revealed() const { return revealed_; }
    /// Grades the predictions for the request against the lanes' decisions and adds them to the
    /// scores; once per request (a second call gives the same outcomes).
    const std::vector<Outcome>& reveal();
    /// After reveal(): on to the next request. Before it: skips this one, ungraded.
    void next();

    /// Right and asked, per slot and over all of them.
    Score score(std::size_t slot) const;
    Score overall() const;
    /// Graded predictions in a row that were right, now and at best.
    int streak() const { return streak_; }
    int bestStreak() const { return best_streak_; }
    /// Every wrong prediction so far, in the order made.
    const std::vector<Mistake>& mistakes() const { return mistakes_; }

private:
    std::shared_ptr<const SimulationResult> result_;
    std::vector<std::size_t> lanes_;
    std::size_t request_ = 0;
    std::vector<std::optional<bool>> predictions_;
    bool revealed_ = false;
    std::vector<Outcome> outcomes_;
    std::vector<Score> scores_;
    int streak_ = 0;
    int best_streak_ = 0;
    std::vector<Mistake> mistakes_;
};

}  // namespace ratelab
