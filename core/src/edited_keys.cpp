#include "edited_keys.h"

#include <algorithm>
#include <cstdint>
#include <tuple>

namespace ratelab::detail {

namespace {

/// A request of the changed stretch, as its key's decisions see it.
struct Place {
    KeyId key = 0;
    std::uint32_t at = 0;  ///< index in its trace, to keep each key's requests in order
    Tick tick = 0;
    std::uint32_t cost = 0;
    Tick duration = 0;
};

std::vector<Place> by_key(const Trace& trace, std::size_t first, std::size_t end) {
    std::vector<Place> places;
    places.reserve(end - first);
    for (std::size_t i = first; i < end; ++i) {
        const Request& r = trace.requests[i];
        places.push_back(
            Place{r.key, static_cast<std::uint32_t>(i), r.tick, r.cost, trace.duration(i)});
    }
    std::sort(places.begin(), places.end(), [](const Place& a, const Place& b) {
        return std::tie(a.key, a.at) < std::tie(b.key, b.at);
    });
    return places;
}

}  // namespace

std::vector<char> keys_changed_by(const Trace& after, const Trace& before, std::size_t first,
                                  std::size_t new_end, std::size_t old_end) {
    std::vector<char> changed(after.keys.size(), 0);
    const std::vector<Place> now = by_key(after, first, new_end);
    const std::vector<Place> was = by_key(before, first, old_end);
    const auto same = [](const Place& a, const Place& b) {
        return a.tick == b.tick && a.cost == b.cost && a.duration == b.duration;
    };
    auto a = now.begin();
    auto b = was.begin();
    while (a != now.end() || b != was.end()) {
        const KeyId key = a == now.end()   ? b->key
                          : b == was.end() ? a->key
                                           : std::min(a->key, b->key);
        const auto a_end =
            std::find_if(a, now.end(), [key](const Place& p) { return p.key != key; });
        const auto b_end =
            std::find_if(b, was.end(), [key](const Place& p) { return p.key != key; });
        if (!std::equal(a, a_end, b, b_end, same) && key < changed.size())
            changed[key] = 1;
        a = a_end;
        b = b_end;
    }
    return changed;
}

}  // namespace ratelab::detail
