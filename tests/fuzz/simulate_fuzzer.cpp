// Fuzzes the simulator: the bytes become parameters and a trace inside the documented bounds,
// and every algorithm's run must keep the core's invariants (simulation_invariants.h).
#include <cstddef>
#include <cstdint>
#include <memory>

#include "fuzz_params.h"
#include "simulation_invariants.h"

namespace {
constexpr std::size_t kMaxRequests = 256;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* bytes, std::size_t size) {
    FuzzedDataProvider data(bytes, size);
    const ratelab::Params params = ratelab::fuzz::consume_params(data);
    auto trace = std::make_shared<const ratelab::Trace>(
        ratelab::fuzz::consume_trace(data, kMaxRequests, params.base.window));
    ratelab::fuzz::check_simulation(trace, params);
    return 0;
}
