#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "ratelab/quiz.h"

namespace ratelab::io {

/// `{"questions": [{"kind", "text", "trace", "lane", "answer", "explanation"}]}`: `trace` is the
/// question's trace as a trace file holds it, `lane` the lane's spec as `--lane` takes it (for
/// which_accepts, the array of the lanes offered), `answer` a sorted array of indexes, a whole
/// number, an exact fraction as "5/2", or "never".
nlohmann::ordered_json quiz_to_json(const std::vector<Question>& questions);
/// An answer as quiz_to_json() writes it.
nlohmann::ordered_json answer_to_json(const Answer& answer);

}  // namespace ratelab::io
