#include "ratelab/algorithm.h"

#include <stdexcept>
#include <string>

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
    if (index >= decisions.size() || index >= trace.requests.size())
        throw std::out_of_range("no decision for request " + std::to_string(index));
    const Tick tick = trace.requests[index].tick;
    const Rational duration = decisions.duration(index);
    const Outcome kept = decisions.outcome(index);
    return make_decision(kept, kept == kAccepted && releases ? Rational(tick) + duration : duration,
                         releases, tick);
}

}  // namespace ratelab
