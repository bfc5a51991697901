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
    scores_.assign(lanes_.size(), Score{});
}

std::optional<bool> PredictRound::prediction(std::size_t slot) const {
    return predictions_.at(slot);
}

void PredictRound::predict(std::size_t slot, bool accepted) {
    if (!revealed_ && !finished())
        predictions_.at(slot) = accepted;
}

void PredictRound::toggle(std::size_t slot) {
    const std::optional<bool> now = prediction(slot);
    predict(slot, !now || !*now);
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
        outcome.accepted = result_->runs[outcome.lane].accepted(request_);
        if (outcome.predicted) {
            ++scores_[slot].asked;
            if (outcome.right()) {
                ++scores_[slot].right;
                best_streak_ = std::max(best_streak_, ++streak_);
            } else {
                streak_ = 0;
                mistakes_.push_back(Mistake{request_, outcome.lane, *outcome.predicted});
            }
        }
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
