// Turning series into the few points a chart can draw: exact values at any time, and
// decimation to a pixel budget.
#include <algorithm>
#include <cmath>

#include "ratelab/series.h"

namespace ratelab {
namespace {

/// Read access to a polyline's vertices, so that one decimation serves both series kinds.
struct LevelVertices {
    const LevelSeries& series;
    std::size_t size() const { return series.vertices.size(); }
    PlotPoint operator[](std::size_t i) const { return series.vertices[i]; }
};

/// A step series as the polyline that draws it: two vertices per change, the value before and
/// the value after, at the change's tick.
struct StepVertices {
    const StepSeries& series;
    std::size_t size() const { return 2 * series.ticks.size(); }
    PlotPoint operator[](std::size_t i) const {
        const std::size_t change = i / 2;
        const std::int64_t value = i % 2 == 1    ? series.values[change]
                                   : change == 0 ? 0
                                                 : series.values[change - 1];
        return PlotPoint{static_cast<double>(series.ticks[change]), static_cast<double>(value)};
    }
};

/// The first vertex index whose x is above `x` (or at or above it when `inclusive`).
template <class Vertices>
std::size_t first_after(const Vertices& v, double x, bool inclusive) {
    std::size_t lo = 0;
    std::size_t hi = v.size();
    while (lo < hi) {
        const std::size_t mid = lo + (hi - lo) / 2;
        const bool before = inclusive ? v[mid].x < x : v[mid].x <= x;
        if (before)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

template <class Vertices>
double polyline_value_at(const Vertices& v, double x) {
    if (v.size() == 0)
        return 0.0;
    const std::size_t next = first_after(v, x, false);
    if (next == 0)
        return v[0].y;
    const PlotPoint a = v[next - 1];
    if (next == v.size())
        return a.y;
    const PlotPoint b = v[next];
    return a.y + (b.y - a.y) * (x - a.x) / (b.x - a.x);
}

/// Keeps the first, lowest, highest and last vertex of each column, in their original order.
template <class Vertices>
void keep_column_extremes(const Vertices& v, std::size_t begin, std::size_t end, double from,
                          double to, int columns, std::vector<PlotPoint>& out) {
    const double width = (to - from) / columns;
    std::size_t i = begin;
    for (int column = 0; column < columns && i < end; ++column) {
        const double column_end = column + 1 == columns ? to : from + (column + 1) * width;
        const std::size_t start = i;
        std::size_t low = i;
        std::size_t high = i;
        for (; i < end && (v[i].x < column_end || column + 1 == columns); ++i) {
            if (v[i].y < v[low].y)
                low = i;
            if (v[i].y > v[high].y)
                high = i;
        }
        if (start == i)
            continue;
        std::size_t keep[] = {start, low, high, i - 1};
        std::sort(std::begin(keep), std::end(keep));
        const std::size_t* unique_end = std::unique(std::begin(keep), std::end(keep));
        for (const std::size_t* k = keep; k != unique_end; ++k)
            out.push_back(v[*k]);
    }
}

template <class Vertices>
std::vector<PlotPoint> decimate_polyline(const Vertices& v, double from, double to, int columns) {
    std::vector<PlotPoint> out;
    if (v.size() == 0 || !(to > from))
        return out;
    columns = std::max(columns, 1);
    const std::size_t begin = first_after(v, from, true);
    const std::size_t end = first_after(v, to, false);
    if (begin == v.size() || v[begin].x > from)
        out.push_back(PlotPoint{from, polyline_value_at(v, from)});
    if (end - begin <= 4 * static_cast<std::size_t>(columns)) {
        for (std::size_t i = begin; i < end; ++i)
            out.push_back(v[i]);
    } else {
        keep_column_extremes(v, begin, end, from, to, columns, out);
    }
    if (out.back().x < to)
        out.push_back(PlotPoint{to, polyline_value_at(v, to)});
    return out;
}

}  // namespace

double LevelSeries::value_at(double time) const {
    return polyline_value_at(LevelVertices{*this}, time);
}

std::vector<PlotPoint> decimate(const StepSeries& series, double from, double to, int columns) {
    if (series.empty())
        return to > from ? std::vector<PlotPoint>{{from, 0.0}, {to, 0.0}}
                         : std::vector<PlotPoint>{};
    return decimate_polyline(StepVertices{series}, from, to, columns);
}

std::vector<PlotPoint> decimate(const LevelSeries& series, double from, double to, int columns) {
    return decimate_polyline(LevelVertices{series}, from, to, columns);
}

std::vector<PlotPoint> decimate(const std::vector<PlotPoint>& points, double from, double to,
                                int columns) {
    std::vector<PlotPoint> out;
    const auto by_x = [](const PlotPoint& p, double x) { return p.x < x; };
    const auto begin = std::lower_bound(points.begin(), points.end(), from, by_x);
    const auto end = std::upper_bound(points.begin(), points.end(), to,
                                      [](double x, const PlotPoint& p) { return x < p.x; });
    columns = std::max(columns, 1);
    if (end - begin <= 2 * static_cast<std::ptrdiff_t>(columns)) {
        out.assign(begin, end);
        return out;
    }
    const double width = (to - from) / columns;
    for (auto it = begin; it != end;) {
        const double column_end = from + (std::floor((it->x - from) / width) + 1) * width;
        auto low = it;
        auto high = it;
        for (; it != end && it->x < column_end; ++it) {
            if (it->y < low->y)
                low = it;
            if (it->y > high->y)
                high = it;
        }
        if (low == it) {  // a point at `to` exactly, past the last column
            out.push_back(*it++);
            continue;
        }
        out.push_back(low < high ? *low : *high);
        if (low != high)
            out.push_back(low < high ? *high : *low);
    }
    return out;
}

}  // namespace ratelab
