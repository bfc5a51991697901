// The FIFO queue under the sliding log and the burst trackers (core/src/ring_buffer.h): its
// elements move between the room inside the queue and the heap as it grows, and copies and
// moves must keep them, in order, in either place. Checked against std::deque over seeded
// random operations; a failure prints the seed and the step.
#include "ring_buffer.h"

#include <deque>
#include <random>

#include "catch.h"

using ratelab::detail::RingBuffer;

namespace {

struct Item {
    std::int64_t value;
    std::int64_t twice;
    friend bool operator==(const Item&, const Item&) = default;
};

template <class Queue>
bool holds(const Queue& queue, const std::deque<Item>& expected) {
    if (queue.size() != expected.size() || queue.empty() != expected.empty())
        return false;
    for (std::size_t i = 0; i < expected.size(); ++i) {
        if (!(queue[i] == expected[i]))
            return false;
    }
    return expected.empty() ||
           (queue.front() == expected.front() && queue.back() == expected.back());
}

/// Random pushes, pops, copies, moves and clears, with the queue growing to about `reach`
/// elements and shrinking again, so that it crosses its inline room both ways.
template <std::uint32_t kInline>
void exercise(std::uint64_t seed, std::size_t reach) {
    std::mt19937_64 rng(seed);
    RingBuffer<Item, kInline> queue;
    std::deque<Item> expected;
    std::int64_t next = 0;
    for (int step = 0; step < 4000; ++step) {
        INFO("seed " << seed << ", step " << step);
        const auto choice = rng() % 16;
        if (choice < 7 || expected.empty()) {
            const std::size_t pushes = 1 + rng() % reach;
            for (std::size_t i = 0; i < pushes && expected.size() < 4 * reach; ++i) {
                const Item item{next, 2 * next};
                ++next;
                queue.push_back(item);
                expected.push_back(item);
            }
        } else if (choice < 13) {
            const std::size_t pops = 1 + rng() % expected.size();
            for (std::size_t i = 0; i < pops; ++i) {
                queue.pop_front();
                expected.pop_front();
            }
        } else if (choice == 13) {
            RingBuffer<Item, kInline> copy(queue);
            REQUIRE(holds(copy, expected));
            REQUIRE(copy == queue);
            copy.push_back(Item{-1, -2});  // the copy owns its elements
            REQUIRE(holds(queue, expected));
            REQUIRE_FALSE(copy == queue);
            queue = copy;
            expected.push_back(Item{-1, -2});
        } else if (choice == 14) {
            RingBuffer<Item, kInline> moved(std::move(queue));
            REQUIRE(holds(moved, expected));
            REQUIRE(queue.empty());
            queue = std::move(moved);
        } else {
            RingBuffer<Item, kInline> other;
            other.push_back(Item{7, 14});
            other = queue;  // over a queue that held something
            REQUIRE(holds(other, expected));
            if (rng() % 2 == 0) {
                queue.clear();
                expected.clear();
            }
        }
        REQUIRE(holds(queue, expected));
    }
}

}  // namespace

TEST_CASE("ring buffer: keeps its elements in order across growth, copies and moves") {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        exercise<0>(seed, 3);
        exercise<2>(seed, 3);
        exercise<2>(seed, 40);
        exercise<4>(seed, 9);
    }
}

TEST_CASE("ring buffer: a short queue keeps its elements inside itself") {
    RingBuffer<Item, 2> queue;
    queue.push_back(Item{1, 2});
    queue.push_back(Item{2, 4});
    // Both elements lie within the queue's own bytes: no allocation for a log this short.
    const auto* begin = reinterpret_cast<const char*>(&queue);
    const auto* first = reinterpret_cast<const char*>(&queue.front());
    const auto* last = reinterpret_cast<const char*>(&queue.back());
    CHECK(first >= begin);
    CHECK(last + sizeof(Item) <= begin + sizeof(queue));
    queue.push_back(Item{3, 6});  // now on the heap
    const auto* moved = reinterpret_cast<const char*>(&queue.front());
    CHECK((moved < begin || moved >= begin + sizeof(queue)));
    CHECK(queue.front() == Item{1, 2});
    CHECK(queue.back() == Item{3, 6});
}
