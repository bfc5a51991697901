#include "timeline/time_axis.h"

#include <algorithm>
#include <cmath>

namespace ratelab::ui {

void TimeAxis::setWidth(double pixels) {
    width_ = std::max(1.0, pixels);
    clamp();
}

void TimeAxis::setContent(double from, double to) {
    content_from_ = from;
    content_to_ = std::max(to, from + 1.0);
    clamp();
}

double TimeAxis::minPixelsPerTick() const {
    // Zooming out stops once the whole content fits, but never forces more than the maximum.
    return std::min(kMaxPixelsPerTick, width_ / (content_to_ - content_from_));
}

std::int64_t TimeAxis::tickAt(double x) const {
    return static_cast<std::int64_t>(std::floor(toTime(x)));
}

void TimeAxis::setView(double first, double pixels_per_tick) {
    first_time_ = first;
    pixels_per_tick_ = pixels_per_tick;
    clamp();
}

void TimeAxis::zoom(double factor, double anchor_x) {
    const double anchor_time = toTime(anchor_x);
    pixels_per_tick_ = std::clamp(pixels_per_tick_ * factor, minPixelsPerTick(), kMaxPixelsPerTick);
    first_time_ = anchor_time - anchor_x / pixels_per_tick_;
    clamp();
}

void TimeAxis::pan(double dx) {
    first_time_ += dx / pixels_per_tick_;
    clamp();
}

void TimeAxis::fit() {
    pixels_per_tick_ = minPixelsPerTick();
    first_time_ = content_from_;
    clamp();
}

void TimeAxis::ensureVisible(double time, double margin_pixels) {
    const double margin = std::min(margin_pixels, width_ / 3.0) / pixels_per_tick_;
    if (time < first_time_ + margin) {
        first_time_ = time - margin;
    } else if (time > lastTime() - margin) {
        first_time_ = time + margin - width_ / pixels_per_tick_;
    }
    clamp();
}

double TimeAxis::contentPixels() const {
    return (content_to_ - content_from_) * pixels_per_tick_;
}

void TimeAxis::setOffsetPixels(double offset) {
    first_time_ = content_from_ + offset / pixels_per_tick_;
    clamp();
}

void TimeAxis::clamp() {
    pixels_per_tick_ = std::clamp(pixels_per_tick_, minPixelsPerTick(), kMaxPixelsPerTick);
    const double visible = width_ / pixels_per_tick_;
    const double span = content_to_ - content_from_;
    if (visible >= span) {
        first_time_ = content_from_;  // everything fits: keep the start of time at the left edge
    } else {
        first_time_ = std::clamp(first_time_, content_from_, content_to_ - visible);
    }
}

namespace {

// The smallest 1-2-5 multiple of 10^k (>= 1) that is at least `at_least`.
std::int64_t niceStep(double at_least) {
    std::int64_t decade = 1;
    while (true) {
        for (const std::int64_t m : {1, 2, 5}) {
            if (static_cast<double>(m * decade) >= at_least) {
                return m * decade;
            }
        }
        if (decade > 1'000'000'000'000'000LL / 10) {
            return decade * 10;
        }
        decade *= 10;
    }
}

}  // namespace

std::int64_t TimeAxis::labelStep(double pixels_per_tick, double min_spacing) {
    return niceStep(min_spacing / pixels_per_tick);
}

std::int64_t TimeAxis::boundaryStride(std::int64_t window, double pixels_per_tick,
                                      double min_spacing) {
    const double window_pixels = static_cast<double>(window) * pixels_per_tick;
    if (window_pixels >= min_spacing) {
        return 1;
    }
    return niceStep(min_spacing / window_pixels);
}

}  // namespace ratelab::ui
