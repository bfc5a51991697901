#include "ratelab/predict.h"

#include <algorithm>
#include <numeric>
#include <string>

namespace ratelab {

PredictRound::PredictRound(std::shared_ptr<const SimulationResult> result,
                           std::vector<std::size_t> lanes, std::size_t first)
    : result_(std::move(result)), lanes_(std::move(lanes)), request_(first) {
    if (!result_)
        throw SimulationError("predict mode needs a simulation");
    if (lanes_.empty()) {
        lanes_.resize(result_->runs.size());
        std::iota(lanes_.begin(), lanes_.end(), std::size_t{0});
    }
    const std::size_t requests = result_->trace->requests.size();
    for (const std::size_t lane : lanes_) {
        if (lane >= result_->runs.size())
            throw SimulationError("no lane " + std::to_string(lane));
        if (requests > 0 && !result_->runs[lane].has_decisions())
            throw SimulationError("predict mode needs each lane's decisions");
    }
    predictions_.assign(lanes_.size(), std::nullopt);
    release_predictions_.assign(lanes_.size(), std::nullopt);
    scores_.assign(lanes_.size(), Score{});
}

std::optional<bool> PredictRound::prediction(std::size_t slot) const {
    return predictions_.at(slot);
}

void PredictRound::predict(std::size_t slot, bool accepted) {
    if (revealed_ || finished())
        return;
    predictions_.at(slot) = accepted;
    if (!accepted)  // a rejected request is never released
        release_predictions_.at(slot).reset();
}

void PredictRound::toggle(std::size_t slot) {
    const std::optional<bool> now = prediction(slot);
    predict(slot, !now || !*now);
}

bool PredictRound::shapes(std::size_t slot) const {
    return result_->runs[lanes_.at(slot)].releases;
}

std::optional<Rational> PredictRound::releasePrediction(std::size_t slot) const {
    return release_predictions_.at(slot);
}

void PredictRound::predictRelease(std::size_t slot, const Rational& tick) {
    if (revealed_ || finished() || !shapes(slot))
        return;
    predictions_.at(slot) = true;
    release_predictions_.at(slot) = tick;
}

void PredictRound::clearReleasePrediction(std::size_t slot) {
    if (!revealed_ && !finished())
        release_predictions_.at(slot).reset();
}

void PredictRound::gradeRelease(Outcome& outcome) {
    if (!outcome.release || !outcome.release_said)
        return;
    outcome.release_grade =
        grade_near(*outcome.release, *outcome.release_said, release_tolerance_, "");
    ++release_score_.asked;
    if (outcome.release_grade->correct)
        ++release_score_.right;
    else
        mistakes_.push_back(Mistake{request_, outcome.lane, true, outcome.release_said});
}

const std::vector<PredictRound::Outcome>& PredictRound::reveal() {
    if (revealed_ || finished())
        return outcomes_;
    revealed_ = true;
    outcomes_.clear();
    for (std::size_t slot = 0; slot < lanes_.size(); ++slot) {
        Outcome outcome;
        outcome.lane = lanes_[slot];
        outcome.predicted = predictions_[slot];
        const AlgorithmRun& run = result_->runs[outcome.lane];
        outcome.accepted = run.accepted(request_);
        if (run.releases && outcome.accepted)
            outcome.release = run.release(*result_->trace, request_);
        outcome.release_said = release_predictions_[slot];
        if (outcome.predicted) {
            ++scores_[slot].asked;
            if (outcome.right()) {
                ++scores_[slot].right;
                best_streak_ = std::max(best_streak_, ++streak_);
            } else {
                streak_ = 0;
                mistakes_.push_back(Mistake{request_, outcome.lane, *outcome.predicted, {}});
            }
        }
        gradeRelease(outcome);
        outcomes_.push_back(outcome);
    }
    return outcomes_;
}

void PredictRound::next() {
    if (finished())
        return;
    ++request_;
    revealed_ = false;
    outcomes_.clear();
    std::fill(predictions_.begin(), predictions_.end(), std::nullopt);
    std::fill(release_predictions_.begin(), release_predictions_.end(), std::nullopt);
}

PredictRound::Score PredictRound::score(std::size_t slot) const {
    return scores_.at(slot);
}

PredictRound::Score PredictRound::overall() const {
    Score total;
    for (const Score& s : scores_) {
        total.right += s.right;
        total.asked += s.asked;
    }
    return total;
}

}  // namespace ratelab
