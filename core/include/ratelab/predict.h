#pragma once
// Predict mode: before each request is decided, the learner says what each lane will do, and
// for a shaper roughly when it lets the request out; the engine's decision then grades it. Pure
// bookkeeping over a finished simulation, so that the app's Predict panel only shows it.

#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include "ratelab/quiz.h"
#include "ratelab/rational.h"
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
        /// A shaper's acceptance: the tick at which it lets the request out.
        std::optional<Rational> release;
        /// The release the learner guessed, and its grade when the lane did accept.
        std::optional<Rational> release_said;
        std::optional<Grade> release_grade;
        bool right() const { return predicted && *predicted == accepted; }
    };
    /// A prediction that was wrong: which request, which lane, what was said.
    struct Mistake {
        std::size_t request = 0;
        std::size_t lane = 0;
        bool predicted = false;
        /// Set when the mistake is a release guessed too far from the truth (the lane did
        /// accept, as said): the tick guessed.
        std::optional<Rational> release_said;
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

    /// The lane in `slot` shapes (a leaky bucket queue): its acceptances have a release time.
    bool shapes(std::size_t slot) const;
    /// The release tick guessed for the lane in `slot`, a shaper's.
    std::optional<Rational> releasePrediction(std::size_t slot) const;
    /// Guesses when the shaper in `slot` lets the request out, which also says it accepts it.
    /// Ignored for a lane that does not shape, and once revealed.
    void predictRelease(std::size_t slot, const Rational& tick);
    void clearReleasePrediction(std::size_t slot);
    /// How far a release guess may be from the truth and still count (default: one tick).
    const Rational& releaseTolerance() const { return release_tolerance_; }
    void setReleaseTolerance(const Rational& ticks) { release_tolerance_ = ticks; }

    bool revealed() const { return revealed_; }
    /// Grades the predictions for the request against the lanes' decisions and adds them to the
    /// scores; once per request (a second call gives the same outcomes).
    const std::vector<Outcome>& reveal();
    /// The outcomes of the last reveal() (empty before it).
    const std::vector<Outcome>& outcomes() const { return outcomes_; }
    /// After reveal(): on to the next request. Before it: skips this one, ungraded.
    void next();

    /// Right and asked, per slot and over all of them.
    Score score(std::size_t slot) const;
    Score overall() const;
    /// Release guesses graded (the lane accepted) and those close enough, over all slots.
    Score releaseScore() const { return release_score_; }
    /// Graded predictions in a row that were right, now and at best.
    int streak() const { return streak_; }
    int bestStreak() const { return best_streak_; }
    /// Every wrong prediction so far, in the order made.
    const std::vector<Mistake>& mistakes() const { return mistakes_; }

private:
    void gradeRelease(Outcome& outcome);

    std::shared_ptr<const SimulationResult> result_;
    std::vector<std::size_t> lanes_;
    std::size_t request_ = 0;
    std::vector<std::optional<bool>> predictions_;
    std::vector<std::optional<Rational>> release_predictions_;
    Rational release_tolerance_{1};
    Score release_score_;
    bool revealed_ = false;
    std::vector<Outcome> outcomes_;
    std::vector<Score> scores_;
    int streak_ = 0;
    int best_streak_ = 0;
    std::vector<Mistake> mistakes_;
};

}  // namespace ratelab
