#pragma once

#include <cstdint>

namespace ratelab::ui {

/// The horizontal geometry of the timeline: maps simulated time (in ticks, fractions allowed)
/// to pixels of the plot area and back, and keeps zoom and pan inside sensible bounds.
///
/// Tick t occupies the cell [t, t + 1); requests are drawn at the cell centre t + 0.5, so that a
/// window boundary at kW falls exactly between tick kW - 1 and tick kW. No Qt in here, so it can
/// be tested without a display.
class TimeAxis {
public:
    static constexpr double kMaxPixelsPerTick = 120.0;

    /// Width of the plot area in pixels (> 0).
    void setWidth(double pixels);
    double width() const { return width_; }

    /// The time span that holds content: panning stops at its ends and zooming out stops when it
    /// fits. `to` > `from`.
    void setContent(double from, double to);
    double contentFrom() const { return content_from_; }
    double contentTo() const { return content_to_; }

    double pixelsPerTick() const { return pixels_per_tick_; }
    double minPixelsPerTick() const;
    /// Time at the left and right edges of the plot area.
    double firstTime() const { return first_time_; }
    double lastTime() const { return first_time_ + width_ / pixels_per_tick_; }

    double toX(double time) const { return (time - first_time_) * pixels_per_tick_; }
    double toTime(double x) const { return first_time_ + x / pixels_per_tick_; }
    /// The tick whose cell contains pixel `x`.
    std::int64_t tickAt(double x) const;
    /// Centre of tick `tick`'s cell, where its requests are drawn.
    double centreX(std::int64_t tick) const { return toX(static_cast<double>(tick) + 0.5); }

    /// Shows time `first` at the left edge at the given scale, clamped to the bounds.
    void setView(double first, double pixels_per_tick);
    /// Multiplies the scale by `factor`, keeping the time under pixel `anchor_x` in place.
    void zoom(double factor, double anchor_x);
    /// Moves the view by `dx` pixels (positive shows later times).
    void pan(double dx);
    /// Shows the whole content.
    void fit();
    /// Makes sure `time` is visible, scrolling as little as possible.
    void ensureVisible(double time, double margin_pixels);

    /// Total content width in pixels at the current scale, and the current offset into it; for
    /// a scroll bar.
    double contentPixels() const;
    double offsetPixels() const { return (first_time_ - content_from_) * pixels_per_tick_; }
    void setOffsetPixels(double offset);

    /// The distance in ticks between labelled ruler marks: the smallest of 1, 2, 5, 10, 20, 50...
    /// that keeps labels at least `min_spacing` pixels apart.
    static std::int64_t labelStep(double pixels_per_tick, double min_spacing);
    /// How many windows apart to draw boundary lines so that they stay at least `min_spacing`
    /// pixels apart: 1 when every boundary fits, else a 1-2-5 multiple.
    static std::int64_t boundaryStride(std::int64_t window, double pixels_per_tick,
                                       double min_spacing);

private:
    void clamp();

    double width_ = 800.0;
    double content_from_ = 0.0;
    double content_to_ = 24.0;
    double first_time_ = 0.0;
    double pixels_per_tick_ = 32.0;
};

}  // namespace ratelab::ui
