#pragma once

#include <QColor>
#include <QFont>
#include <QRectF>
#include <QString>
#include <cstddef>
#include <optional>
#include <vector>

#include "ratelab/model.h"

namespace ratelab::ui {

struct TimelineScene;

// Where the timeline writes its words and numbers, worked out apart from painting: the painters
// draw exactly these, and tests check that they fit and do not collide.

/// A tick number on the ruler, in the box it is drawn in.
struct RulerLabel {
    Tick tick = 0;
    QString text;
    QRectF box;
};

/// The clock handle's box on the ruler (its notch below it), or nothing when "now" is out of
/// view or there is no result.
std::optional<QRectF> clockHandleBox(const TimelineScene& scene);
/// The ruler's tick numbers, left to right: one every few ticks, never touching each other nor
/// the clock handle, whose own number stands for the ticks it covers.
std::vector<RulerLabel> rulerLabels(const TimelineScene& scene);

/// A row name in the gutter, and a smaller second line under it, as they are drawn.
struct GutterLabel {
    QString title;
    QRectF title_box;
    QString detail;  ///< empty when the row shows none, or it has no room for a second line
    QRectF detail_box;
    QString badge;  ///< the library of a preset lane, framed before the detail
    QRectF badge_box;
};

/// A lane's name and its figures so far ("74.0k ok · 327k rejected"), fitted to the gutter; with
/// split lanes, its name alone at the lane's top.
GutterLabel laneLabel(const TimelineScene& scene, std::size_t lane);
/// With split lanes, the name of each sub-row's key in the gutter, beside its sub-row, after a
/// swatch of the key's colour (invalid: none). Empty when the lanes are not split.
struct SplitRowLabel {
    KeyId key = 0;
    QString text;
    QFont font;
    QRectF box;  ///< the swatch at its left, then the text
    QColor colour;
};
std::vector<SplitRowLabel> splitRowLabels(const TimelineScene& scene, std::size_t lane);
/// How much wider the gutter is with split lanes, for the keys' names in a view font `font`:
/// the widest name (up to a dozen characters, longer ones elided) and its swatch.
double splitKeysWidth(const QFont& font, const Trace& trace, const std::vector<KeyId>& keys);
/// The trace row's second line: how many requests, or which keys are on show.
QString traceRowDetail(const TimelineScene& scene);
/// Figures as the gutter writes them: exact below 10,000, then three significant digits (12.3k,
/// 327k, 4.51M), so that every figure is at most four digits and a letter wide.
QString compactCount(std::int64_t value);
/// How wide the widest lane figures are in the gutter's small type, for a view font `font`.
double widestLaneFigures(const QFont& font);

/// A lane's worst span as drawn: the band's ends, its bracket along the top, and the figure
/// ("6 in 10 ticks > L") right-aligned in `box`, inside the band or beside it.
struct SpanLabel {
    double left = 0.0;   ///< the band's left end, x
    double right = 0.0;  ///< its right end, x; the bracket's ends are 1 px inside
    double y = 0.0;      ///< the bracket's top line
    double pen = 1.5;    ///< the bracket's line width: thicker over the limit
    bool over = false;
    QString text;
    QFont font;
    QRectF box;
};
/// Lane `lane`'s worst span, or nothing when it has none or it is out of view. With split lanes
/// and `key_row` a sub-row, that sub-row's key's own worst span, against its own limit.
std::optional<SpanLabel> worstSpanLabel(const TimelineScene& scene, std::size_t lane,
                                        int key_row = -1);

/// A figure beside a pile's bar in a lane: how many of the pile it accepted (drawn above the
/// middle), rejected (below) or has not decided yet (above the accepted).
struct PileCount {
    enum class Kind { Accepted, Rejected, Pending };
    Kind kind = Kind::Accepted;
    QString text;
    QFont font;
    QRectF box;
};
/// The width of a pile's bar in a lane.
double pileBarWidth(const TimelineScene& scene);
/// What lane `lane` made of the pile [first, first + count) so far: of the keys on show
/// (TimelineScene::shown_keys) when any of them is in it, else of every request, all faint.
struct PileTally {
    std::size_t accepted = 0;
    std::size_t rejected = 0;
    std::size_t pending = 0;  ///< not yet decided at the clock
    bool faint = false;       ///< no request of a key on show is in the pile
};
/// With split lanes and `key_row` a sub-row, only that sub-row's key's requests are counted.
PileTally tallyPile(const TimelineScene& scene, std::size_t lane, std::size_t first,
                    std::size_t count, int key_row = -1);
/// The figures beside the pile of requests [first, first + count) on one tick in lane `lane`:
/// right of its bar, else left of it, where they clear the marks of the ticks beside; none when
/// neither side has room (the pile's tooltip still counts it).
std::vector<PileCount> pileCounts(const TimelineScene& scene, std::size_t lane, std::size_t first,
                                  std::size_t count, int key_row = -1);

}  // namespace ratelab::ui
