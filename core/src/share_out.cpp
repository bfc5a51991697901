#include "share_out.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <thread>
#include <vector>

namespace ratelab::detail {

void share_out(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& work) {
    std::atomic<std::size_t> next{0};
    std::vector<std::exception_ptr> errors(count);
    auto worker = [&] {
        for (std::size_t i = next++; i < count; i = next++) {
            try {
                work(i);
            } catch (...) {
                errors[i] = std::current_exception();
            }
        }
    };
    std::vector<std::thread> helpers;
    for (unsigned t = 1; t < threads; ++t)
        helpers.emplace_back(worker);
    worker();
    for (std::thread& helper : helpers)
        helper.join();
    for (const std::exception_ptr& error : errors) {
        if (error)
            std::rethrow_exception(error);
    }
}

unsigned threads_for(std::size_t requests, unsigned asked, std::size_t tasks) {
    constexpr std::size_t kWorthAThread = 20'000;
    // Asked once: glibc reads it from /sys at every call (about 10 us here, on every edit).
    static const unsigned cores = std::thread::hardware_concurrency();
    unsigned threads = asked != 0 ? asked : cores;
    if (requests < kWorthAThread)
        threads = 1;
    return std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(tasks)));
}

}  // namespace ratelab::detail
