#include "ratelab/algorithm.h"

namespace ratelab {

Decision make_decision(AlgorithmRun::Outcome outcome, const Rational& time, bool releases,
                       Tick tick) {
    Decision decision;
    switch (outcome) {
        case AlgorithmRun::kAccepted:
            decision.accepted = true;
            if (releases) {
                decision.release = time;
                decision.delay = time - Rational(tick);
            }
            break;
        case AlgorithmRun::kRejected:
            decision.retry_after = time;
            break;
        case AlgorithmRun::kRejectedNever:
            decision.retry_never = true;
            break;
    }
    return decision;
}

Decision AlgorithmRun::decision(const Trace& trace, std::size_t index) const {
    return make_decision(outcomes.at(index), times.at(index), releases,
                         trace.requests.at(index).tick);
}

}  // namespace ratelab
