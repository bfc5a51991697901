#pragma once

#include <QColor>
#include <QPair>
#include <QPoint>
#include <QStringList>
#include <QWidget>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ratelab/lesson.h"
#include "session/frame_model.h"
#include "timeline/time_axis.h"
#include "timeline/timeline_hit_test.h"
#include "timeline/timeline_scene.h"

namespace ratelab::ui {

struct LaneRetries;
class PlaybackClock;
class Session;

/// The painted timeline: a ruler, the editable trace row and one lane per algorithm on a shared
/// time axis. It reads Frames and edits only through the Session.
class TimelineView : public QWidget {
    Q_OBJECT

public:
    TimelineView(Session* session, PlaybackClock* clock, QWidget* parent = nullptr);

    const TimeAxis& axis() const { return axis_; }
    const Frame& frame() const { return frame_; }
    int highlightedLane() const { return highlighted_lane_; }
    /// The scene as last laid out; tests use it to find where things are drawn.
    TimelineScene scene() const;
    /// Scroll support for the enclosing panel.
    void setOffsetPixels(double offset);

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

public Q_SLOTS:
    void setFrame(const ratelab::ui::Frame& frame);
    /// Retries to draw over the lanes while the result they belong to is on show; null for
    /// none.
    void setRetries(std::shared_ptr<const ratelab::ui::LaneRetries> retries);
    /// The keys on show, by name (the charts' choice): requests of other keys are drawn faint.
    /// Empty: every key.
    void setShownKeys(const QStringList& names);
    /// The keys whose boxes have a colour of their own in the trace row, by name, with it, in
    /// the order of the trace's key table: the keys on show when there are two to eight.
    const QList<QPair<QString, QColor>>& keyColours() const { return key_legend_; }
    /// "Split lanes by key": each lane gets a sub-row per key of keyColours(), which shows that
    /// key's decisions and its own worst span. Takes effect while there are such keys (two to
    /// eight); canSplitByKey() says whether there are.
    void setSplitByKey(bool on);
    bool splitByKey() const { return split_by_key_; }
    bool canSplitByKey() const { return !colour_keys_.empty(); }
    /// Whether the lanes are drawn split now: asked for, and possible.
    bool isSplit() const { return split_by_key_ && canSplitByKey(); }
    void setHighlightedLane(int lane);
    /// How much larger than usual the marks are drawn: the view's type over the application's
    /// (1.5 in presentation mode), from 1 to 3.
    double markScale() const;
    /// A lesson step's highlights, drawn while the step is open (empty: none). A highlighted
    /// request is drawn only while `trace`, the step's own, is the one on show.
    void setLessonHighlights(std::vector<ratelab::Highlight> highlights,
                             std::shared_ptr<const ratelab::Trace> trace);
    const std::vector<Highlight>& lessonHighlights() const { return lesson_highlights_; }
    void zoomIn();
    void zoomOut();
    void fitToTrace();
    void panLeft();
    void panRight();
    void selectNext();
    void selectPrevious();
    void selectAll();
    /// Moves the selected requests by `delta` ticks, one undo step per call.
    void moveSelection(int delta);
    void increaseCost();
    void decreaseCost();
    void deleteSelection();
    /// Asks for a key and gives it to the selected requests.
    void askKey();
    /// Asks how long the selected requests hold what they take (the concurrency lane's time in
    /// flight; 0 leaves it to the lane) and sets it.
    void askDuration();
    /// Asks for a note's text and pins it to `tick` (the clock's tick when called from the
    /// Edit menu).
    void addNote(Tick tick);
    void addNoteAtClock();
    /// Asks for note `index`'s new text; an emptied text deletes it.
    void editNote(std::size_t index);
    void deleteNote(std::size_t index);

Q_SIGNALS:
    /// The visible time span or scale changed: [first, last) in ticks.
    void viewChanged(double first, double last);
    /// The user picked a lane (clicked its name or one of its decisions).
    void laneActivated(int lane);
    /// A line for the status bar, such as what a click added and where.
    void statusMessage(const QString& message);
    /// keyColours() changed (and with them canSplitByKey()).
    void keyColoursChanged();
    /// setSplitByKey() changed the choice.
    void splitByKeyChanged(bool on);

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;
    void resizeEvent(QResizeEvent* event) override;
    void mousePressEvent(QMouseEvent* event) override;
    void mouseMoveEvent(QMouseEvent* event) override;
    void mouseReleaseEvent(QMouseEvent* event) override;
    void mouseDoubleClickEvent(QMouseEvent* event) override;
    void wheelEvent(QWheelEvent* event) override;
    void contextMenuEvent(QContextMenuEvent* event) override;
    void keyPressEvent(QKeyEvent* event) override;

private:
    enum class Gesture { kIdle, kScrubbing, kPressedRequest, kDragging, kPressedTrace, kPanning };
    /// How much one step of zoom (a key, a menu entry or a wheel notch) scales the axis.
    static constexpr double kZoomStep = 1.25;
    /// How much of the plot's width one step of panning moves it.
    static constexpr double kPanFraction = 0.2;

    TimelineLayout currentLayout() const;
    /// Wide enough for every lane's name and figures in the current font; measured again only
    /// when the font or the algorithms change.
    double gutterWidth() const;
    TimelineHit hitAt(QPointF pos) const;
    void updateContent();
    void axisChanged();
    void updateHoverCursor(const TimelineHit& hit);
    void showContextMenu(const TimelineHit& hit, QPoint global_pos);

    Session* session_;
    PlaybackClock* clock_;
    TimeAxis axis_;
    Frame frame_;
    /// Kept from paint to paint while the result stays: zoomed out, panning and zooming then
    /// cost per pixel column rather than per request.
    mutable std::shared_ptr<const ColumnCounts> counts_;
    std::shared_ptr<const LaneRetries> retries_;
    std::vector<Highlight> lesson_highlights_;
    std::weak_ptr<const Trace> lesson_trace_;
    QStringList shown_keys_;
    /// keyColours(), and the same colours by key id of `key_colours_of_`.
    void chooseKeyColours();
    QList<QPair<QString, QColor>> key_legend_;
    std::vector<QColor> key_colours_;
    std::weak_ptr<const Trace> key_colours_of_;
    /// The keys with a colour, in the legend's order, and each key id's place among them (-1:
    /// none): the sub-rows of split lanes.
    std::vector<KeyId> colour_keys_;
    std::vector<int> colour_rows_;
    bool split_by_key_ = false;
    /// Per sub-row, each lane's figures of that key alone, over `split_lanes_of_`.
    mutable std::vector<std::vector<std::optional<LaneKeys>>> split_lanes_;
    mutable std::weak_ptr<const std::vector<std::optional<LaneKeys>>> split_lanes_of_;
    /// shown_keys_ as key ids of `key_mask_of_`'s trace, and each lane's figures of those keys
    /// over `shown_lanes_of_`, found when a scene first needs them.
    mutable std::vector<char> key_mask_;
    mutable std::weak_ptr<const Trace> key_mask_of_;
    mutable std::vector<std::optional<LaneKeys>> shown_lanes_;
    mutable std::weak_ptr<const std::vector<std::optional<LaneKeys>>> shown_lanes_of_;
    struct Gutter {
        QFont font;
        std::vector<std::pair<std::string, std::string>> lanes;  ///< each lane's id and label
        double width = 0.0;
    };
    mutable std::optional<Gutter> gutter_;
    mutable TextWidths text_widths_;
    int highlighted_lane_ = -1;
    std::optional<std::size_t> hovered_;
    bool fit_pending_ = true;

    Gesture gesture_ = Gesture::kIdle;
    QPointF press_pos_;
    QPointF last_pos_;
    Tick press_tick_ = 0;
    Tick applied_delta_ = 0;
    int drag_id_ = 0;
    IndexList dragged_;
    int wheel_remainder_ = 0;
};

}  // namespace ratelab::ui
