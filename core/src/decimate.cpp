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
    const std::vector<BlockExtremes>& extremes() const { return series.extremes; }
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
    const std::vector<BlockExtremes>& extremes() const { return series.extremes; }
};

/// The blocks of kExtremesBlock vertices that `v` has, the last one perhaps short.
template <class Vertices>
std::size_t block_count(const Vertices& v) {
    return (v.size() + kExtremesBlock - 1) / kExtremesBlock;
}

/// The first lowest and the first highest of the vertices it is shown, in index order.
template <class Vertices>
struct Extremes {
    Extremes(const Vertices& vertices, std::size_t first)
        : v(vertices), low(first), high(first), low_y(v[first].y), high_y(low_y) {}
    void consider(std::size_t at) {
        const double y = v[at].y;
        if (y < low_y) {
            low = at;
            low_y = y;
        }
        if (y > high_y) {
            high = at;
            high_y = y;
        }
    }
    const Vertices& v;
    std::size_t low;
    std::size_t high;
    double low_y;
    double high_y;
};

template <class Vertices>
std::vector<BlockExtremes> block_extremes(const Vertices& v) {
    std::vector<BlockExtremes> out;
    out.reserve(block_count(v));
    for (std::size_t begin = 0; begin < v.size(); begin += kExtremesBlock) {
        Extremes<Vertices> block(v, begin);
        for (std::size_t i = begin + 1; i < std::min(v.size(), begin + kExtremesBlock); ++i)
            block.consider(i);
        out.push_back(BlockExtremes{static_cast<std::uint32_t>(block.low - begin),
                                    static_cast<std::uint32_t>(block.high - begin)});
    }
    return out;
}

/// The first index in [begin, end) whose vertex is at or after `x`, or `end`.
template <class Vertices>
std::size_t first_from(const Vertices& v, std::size_t begin, std::size_t end, double x) {
    while (begin < end) {
        const std::size_t mid = begin + (end - begin) / 2;
        if (v[mid].x < x)
            begin = mid + 1;
        else
            end = mid;
    }
    return begin;
}

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

/// Keeps the first, lowest, highest and last vertex of each column, in their original order:
/// the first lowest and the first highest where there are several. Whole blocks inside a column
/// are taken from their extremes when the series has them.
template <class Vertices>
void keep_column_extremes(const Vertices& v, std::size_t begin, std::size_t end, double from,
                          double to, int columns, std::vector<PlotPoint>& out) {
    const double width = (to - from) / columns;
    const std::vector<BlockExtremes>& extremes = v.extremes();
    const bool blocks = extremes.size() == block_count(v);
    std::size_t i = begin;
    for (int column = 0; column < columns && i < end; ++column) {
        const bool last = column + 1 == columns;
        const std::size_t start = i;
        i = last ? end : first_from(v, i, end, from + (column + 1) * width);
        if (start == i)
            continue;
        Extremes<Vertices> column_extremes(v, start);
        std::size_t at = start + 1;
        if (blocks) {
            const std::size_t whole = (at + kExtremesBlock - 1) / kExtremesBlock * kExtremesBlock;
            for (; at < std::min(i, whole); ++at)
                column_extremes.consider(at);
            for (; at + kExtremesBlock <= i; at += kExtremesBlock) {
                const BlockExtremes& block = extremes[at / kExtremesBlock];
                column_extremes.consider(at + block.low);
                column_extremes.consider(at + block.high);
            }
        }
        for (; at < i; ++at)
            column_extremes.consider(at);
        std::size_t keep[] = {start, column_extremes.low, column_extremes.high, i - 1};
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

void LevelSeries::summarize() {
    extremes = block_extremes(LevelVertices{*this});
}

void StepSeries::summarize() {
    extremes = block_extremes(StepVertices{*this});
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
