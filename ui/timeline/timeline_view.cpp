#include "timeline/timeline_view.h"

#include <QApplication>
#include <QContextMenuEvent>
#include <QFontMetricsF>
#include <QPainter>
#include <algorithm>
#include <cmath>

#include "charts/algorithm_names.h"
#include "session/playback_clock.h"
#include "session/session.h"
#include "timeline/lane_retries.h"
#include "timeline/timeline_painter.h"
#include "timeline/timeline_palette.h"
#include "timeline/timeline_text.h"

namespace ratelab::ui {

namespace {

/// How tall each key's sub-row of a split lane may grow.
constexpr double kSplitRowHeight = 36.0;
/// Below this, a sub-row's marks are too small to read well.
constexpr double kCrampedSplitRow = 16.0;

}  // namespace

TimelineView::TimelineView(Session* session, PlaybackClock* clock, QWidget* parent)
    : QWidget(parent), session_(session), clock_(clock) {
    setMouseTracking(true);
    setFocusPolicy(Qt::StrongFocus);
    setAttribute(Qt::WA_OpaquePaintEvent);
    setToolTip(tr("The trace and one lane per algorithm"));
    connect(session_, &Session::selectionChanged, this, qOverload<>(&QWidget::update));
    // The notes strip comes and goes with the first and last note.
    connect(session_, &Session::notesChanged, this, &TimelineView::updateContent);
    connect(session_, &Session::documentReset, this, [this] {
        fit_pending_ = true;
        updateContent();
    });
    connect(clock_, &PlaybackClock::nowChanged, this, [this](Tick now) {
        if (clock_->isPlaying() || gesture_ == Gesture::kScrubbing) {
            axis_.ensureVisible(static_cast<double>(now) + 0.5, 60.0);
            axisChanged();
        }
    });
}

QSize TimelineView::sizeHint() const {
    return {900, 420};
}

QSize TimelineView::minimumSizeHint() const {
    // On a short screen a raised dock (the charts) may squeeze the lanes, never hide one.
    const std::size_t lanes = frame_.result ? frame_.result->runs.size() : 6;
    const bool notes = !session_->notes().empty();
    return {400, static_cast<int>(std::ceil(TimelineLayout::squeezedHeight(lanes, notes)))};
}

double TimelineView::gutterWidth() const {
    // Called on every paint and hit test: compared in place, listed only when measured again.
    static const std::vector<AlgorithmRun> kNoRuns;
    const std::vector<AlgorithmRun>& runs = frame_.result ? frame_.result->runs : kNoRuns;
    if (gutter_ && gutter_->font == font() &&
        std::equal(runs.begin(), runs.end(), gutter_->lanes.begin(), gutter_->lanes.end(),
                   [](const AlgorithmRun& run, const std::pair<std::string, std::string>& lane) {
                       return run.id == lane.first && run.label == lane.second;
                   })) {
        return gutter_->width;
    }
    std::vector<std::pair<std::string, std::string>> lanes;
    std::vector<QString> names;
    for (const AlgorithmRun& run : runs) {
        lanes.emplace_back(run.id, run.label);
        names.push_back(laneName(run.id, run.label));
    }
    QFont bold = font();
    bold.setBold(true);
    const QFontMetricsF metrics(bold);
    double gutter = metrics.horizontalAdvance(tr("Sliding counter")) + 30.0;
    for (const QString& name : names) {
        gutter = std::max(gutter, metrics.horizontalAdvance(name) + 30.0);
    }
    gutter = std::max(gutter, widestLaneFigures(font()) + 24.0);
    gutter_ = Gutter{font(), std::move(lanes), gutter};
    return gutter;
}

TimelineLayout TimelineView::currentLayout() const {
    const std::size_t lanes = frame_.result ? frame_.result->runs.size() : 0;
    // Split by key, a lane may grow taller to give each key's sub-row room.
    const double tallest =
        isSplit() ? std::max(TimelineLayout::kMaxLaneHeight,
                             static_cast<double>(colour_keys_.size()) * kSplitRowHeight)
                  : TimelineLayout::kMaxLaneHeight;
    const double keys = isSplit() && frame_.result
                            ? splitKeysWidth(font(), *frame_.result->trace, colour_keys_)
                            : 0.0;
    return TimelineLayout::compute(QSizeF(size()), lanes,
                                   std::min(gutterWidth() + keys, width() / 3.0), tallest,
                                   !session_->notes().empty());
}

TimelineScene TimelineView::scene() const {
    TimelineScene scene = TimelineScene::build(axis_, currentLayout(), frame_, markScale());
    scene.selection = &session_->selection();
    scene.highlighted_lane = highlighted_lane_;
    scene.hovered = hovered_;
    scene.palette = palette();
    scene.font = font();
    scene.text_widths = &text_widths_;
    scene.notes = &session_->notes();
    if (retries_ && frame_.result && retries_->belongsTo(frame_.result.get()))
        scene.retries = retries_.get();
    if (!lesson_highlights_.empty()) {
        scene.highlights = &lesson_highlights_;
        scene.highlights_own_trace = frame_.result && lesson_trace_.lock() == frame_.result->trace;
    }
    if (!key_legend_.isEmpty())
        scene.key_colours = &key_colours_;
    if (!shown_keys_.isEmpty() && frame_.result) {
        if (key_mask_of_.lock() != frame_.result->trace) {
            key_mask_of_ = frame_.result->trace;
            key_mask_ = keyMask(*frame_.result->trace, shown_keys_);
            shown_lanes_of_.reset();
            shown_lanes_.clear();
        }
        if (!key_mask_.empty() && frame_.keys && shown_lanes_of_.lock() != frame_.keys) {
            shown_lanes_of_ = frame_.keys;
            shown_lanes_ = shownLaneKeys(frame_, key_mask_);
        }
        scene.shown_keys = &key_mask_;
        if (frame_.keys)
            scene.shown_lanes = &shown_lanes_;
    }
    if (isSplit() && frame_.result) {
        scene.split_keys = &colour_keys_;
        scene.split_rows = &colour_rows_;
        if (frame_.keys && split_lanes_of_.lock() != frame_.keys) {
            split_lanes_of_ = frame_.keys;
            split_lanes_.clear();
            for (const KeyId key : colour_keys_) {
                split_lanes_.push_back(
                    shownLaneKeys(frame_, key_mask(frame_.result->trace->keys.size(), {key})));
            }
        }
        if (frame_.keys)
            scene.split_lanes = &split_lanes_;
        scene.applySplit();
    }
    if (!scene.detailed && frame_.result && scene.last - scene.first > scene.kCountOneByOne) {
        if (!counts_ || counts_->result() != frame_.result) {
            // Brought up to date from the counts of the result before an edit, if these are.
            counts_ = std::make_shared<const ColumnCounts>(frame_.result, counts_.get());
        }
        scene.counts = counts_;
    }
    return scene;
}

double TimelineView::markScale() const {
    const double base = QApplication::font().pointSizeF();
    const double mine = font().pointSizeF();
    return base > 0.0 && mine > 0.0 ? std::clamp(mine / base, 1.0, 3.0) : 1.0;
}

TimelineHit TimelineView::hitAt(QPointF pos) const {
    return hitTest(scene(), pos);
}

void TimelineView::setRetries(std::shared_ptr<const LaneRetries> retries) {
    retries_ = std::move(retries);
    update();
}

void TimelineView::setLessonHighlights(std::vector<Highlight> highlights,
                                       std::shared_ptr<const Trace> trace) {
    lesson_highlights_ = std::move(highlights);
    lesson_trace_ = trace;
    update();
}

void TimelineView::chooseKeyColours() {
    const std::shared_ptr<const Trace> trace = frame_.result ? frame_.result->trace : nullptr;
    key_colours_of_ = trace;
    std::vector<KeyId> keys =
        trace ? colouredKeys(*frame_.result, keyMask(*trace, shown_keys_)) : std::vector<KeyId>{};
    key_colours_.assign(trace ? trace->keys.size() : 0, QColor());
    colour_rows_.assign(keys.empty() ? 0 : key_colours_.size(), -1);
    split_lanes_of_.reset();
    split_lanes_.clear();
    QList<QPair<QString, QColor>> legend;
    for (std::size_t i = 0; i < keys.size(); ++i) {
        key_colours_[keys[i]] = timeline_palette::kKeyColours[i];
        colour_rows_[keys[i]] = static_cast<int>(i);
        legend.append({keyName(trace->key_name(keys[i])), timeline_palette::kKeyColours[i]});
    }
    const bool was_split = isSplit();
    colour_keys_ = std::move(keys);
    if (legend != key_legend_) {
        key_legend_ = legend;
        Q_EMIT keyColoursChanged();
    }
    if (was_split != isSplit())
        updateContent();  // the lanes' heights change
}

void TimelineView::setSplitByKey(bool on) {
    if (on == split_by_key_)
        return;
    split_by_key_ = on;
    updateContent();
    Q_EMIT splitByKeyChanged(on);
    if (!isSplit())
        return;
    const TimelineScene now = scene();
    if (!now.layout.lanes.empty() && now.subRow(0, 0).height() < kCrampedSplitRow) {
        Q_EMIT statusMessage(tr("Each key has only %1 px a lane: hide some lanes (Lanes…) or "
                                "give the timeline more room")
                                 .arg(qRound(now.subRow(0, 0).height())));
    }
}

void TimelineView::setShownKeys(const QStringList& names) {
    shown_keys_ = names;
    chooseKeyColours();
    key_mask_of_.reset();
    shown_lanes_of_.reset();
    shown_lanes_.clear();
    update();
}

void TimelineView::setFrame(const Frame& frame) {
    frame_ = frame;
    if (!frame_.result || key_colours_of_.lock() != frame_.result->trace)
        chooseKeyColours();
    updateContent();
}

void TimelineView::updateContent() {
    const TimelineLayout layout = currentLayout();
    axis_.setWidth(layout.plot_width);
    axis_.setContent(0.0, static_cast<double>(clock_->end()) + 1.0);
    if (fit_pending_ && width() > 0) {
        axis_.fit();
        fit_pending_ = false;
    }
    axisChanged();
}

void TimelineView::axisChanged() {
    Q_EMIT viewChanged(axis_.firstTime(), axis_.lastTime());
    update();
}

void TimelineView::setOffsetPixels(double offset) {
    axis_.setOffsetPixels(offset);
    axisChanged();
}

void TimelineView::setHighlightedLane(int lane) {
    if (lane != highlighted_lane_) {
        highlighted_lane_ = lane;
        update();
    }
}

void TimelineView::paintEvent(QPaintEvent*) {
    QPainter painter(this);
    const TimelineScene current = scene();
    // The rows cover the widget down to the last lane; only what is below them needs clearing.
    const double rows_bottom = current.layout.bottom();
    if (rows_bottom < height()) {
        painter.fillRect(QRectF(0, rows_bottom, width(), height() - rows_bottom),
                         palette().color(QPalette::Base));
    }
    paintTimelineBackground(painter, current);
    painter.save();
    const TimelineLayout& layout = current.layout;
    painter.setClipRect(QRectF(layout.plot_left, 0, layout.plot_width + 4.0, layout.bottom()));
    painter.setRenderHint(QPainter::Antialiasing, true);
    paintTimelineHighlightedSpans(painter, current);
    paintTimelineNoteGuides(painter, current);
    paintTimelineRuler(painter, current);
    paintTimelineNotes(painter, current);
    paintTimelineTrace(painter, current);
    paintTimelineLanes(painter, current);
    paintTimelineRetries(painter, current);
    paintTimelineHighlights(painter, current);
    painter.restore();
    painter.setRenderHint(QPainter::Antialiasing, true);
    paintTimelineGutter(painter, current);
    if (hasFocus()) {
        painter.setPen(QPen(palette().color(QPalette::Highlight), 1.0));
        painter.setBrush(Qt::NoBrush);
        painter.drawRect(QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5));
    }
}

void TimelineView::resizeEvent(QResizeEvent*) {
    updateContent();
}

void TimelineView::contextMenuEvent(QContextMenuEvent* event) {
    showContextMenu(hitAt(event->pos()), event->globalPos());
}

void TimelineView::keyPressEvent(QKeyEvent* event) {
    if (event->key() == Qt::Key_Escape && !session_->selection().empty()) {
        session_->setSelection({});
        return;
    }
    QWidget::keyPressEvent(event);
}

}  // namespace ratelab::ui
