// TimelineView's mouse and wheel gestures: scrubbing the ruler, picking and dragging requests,
// adding one with a click, panning, zooming and stepping costs with the wheel.
#include <QApplication>
#include <QMouseEvent>
#include <QWheelEvent>
#include <algorithm>
#include <cmath>
#include <optional>

#include "session/playback_clock.h"
#include "session/session.h"
#include "session/trace_edits.h"
#include "timeline/timeline_view.h"

namespace ratelab::ui {

void TimelineView::mousePressEvent(QMouseEvent* event) {
    setFocus(Qt::MouseFocusReason);
    press_pos_ = last_pos_ = event->position();
    if (event->button() == Qt::MiddleButton) {
        gesture_ = Gesture::kPanning;
        return;
    }
    if (event->button() != Qt::LeftButton) {
        return;
    }
    const TimelineHit hit = hitAt(event->position());
    switch (hit.kind) {
        case TimelineHit::Kind::kRuler:
            gesture_ = Gesture::kScrubbing;
            clock_->pause();
            clock_->setNow(hit.tick);
            break;
        case TimelineHit::Kind::kTraceRequest:
            if (event->modifiers() & Qt::ControlModifier) {
                IndexList selection = session_->selection();
                const auto found = std::find(selection.begin(), selection.end(), hit.index);
                found == selection.end() ? (void)selection.push_back(hit.index)
                                         : (void)selection.erase(found);
                session_->setSelection(std::move(selection));
                break;
            }
            if (!std::binary_search(session_->selection().begin(), session_->selection().end(),
                                    hit.index)) {
                // A pile is picked up whole: its requests are drawn as one.
                const TickRange pile =
                    requestsOnTick(session_->trace(), session_->trace().requests[hit.index].tick);
                IndexList picked;
                for (std::size_t i = pile.first; i < pile.last; ++i) {
                    if (i == hit.index || pile.last - pile.first >= TimelineScene::kPileFrom) {
                        picked.push_back(i);
                    }
                }
                session_->setSelection(std::move(picked));
            }
            dragged_ = session_->selection();
            press_tick_ = hit.tick;
            applied_delta_ = 0;
            drag_id_ = session_->newGesture();
            gesture_ = Gesture::kPressedRequest;
            break;
        case TimelineHit::Kind::kTraceEmpty:
            gesture_ = Gesture::kPressedTrace;
            break;
        case TimelineHit::Kind::kLaneDecision:
            session_->setSelection({hit.index});
            Q_EMIT laneActivated(hit.lane);
            break;
        case TimelineHit::Kind::kLaneName:
            Q_EMIT laneActivated(hit.lane);
            break;
        case TimelineHit::Kind::kLaneRetry:
        case TimelineHit::Kind::kLaneEmpty:
        case TimelineHit::Kind::kNote:
        case TimelineHit::Kind::kNotesEmpty:
        case TimelineHit::Kind::kNothing:
            session_->setSelection({});
            gesture_ = Gesture::kPanning;
            break;
    }
}

void TimelineView::mouseMoveEvent(QMouseEvent* event) {
    const QPointF pos = event->position();
    const double moved = (pos - press_pos_).manhattanLength();
    const bool past_threshold = moved >= QApplication::startDragDistance();
    switch (gesture_) {
        case Gesture::kIdle: {
            const TimelineHit hit = hitAt(pos);
            updateHoverCursor(hit);
            const bool on_request = hit.kind == TimelineHit::Kind::kTraceRequest ||
                                    hit.kind == TimelineHit::Kind::kLaneDecision;
            const std::optional<std::size_t> hovered =
                on_request ? std::optional(hit.index) : std::nullopt;
            if (hovered != hovered_) {
                hovered_ = hovered;
                update();  // its queue wait, if faded among others, is drawn whole
            }
            break;
        }
        case Gesture::kScrubbing:
            clock_->setNow(std::max<Tick>(0, scene().tickAt(pos.x())));
            break;
        case Gesture::kPressedRequest:
            if (!past_threshold) {
                break;
            }
            gesture_ = Gesture::kDragging;
            [[fallthrough]];
        case Gesture::kDragging: {
            const Tick wanted = scene().tickAt(pos.x()) - press_tick_;
            const Tick step = clampMoveDelta(session_->trace(), dragged_, wanted - applied_delta_);
            if (step != 0) {
                dragged_ = session_->moveRequests(dragged_, step, drag_id_);
                applied_delta_ += step;
            }
            break;
        }
        case Gesture::kPressedTrace:
            if (past_threshold) {
                gesture_ = Gesture::kPanning;
            }
            break;
        case Gesture::kPanning:
            axis_.pan(last_pos_.x() - pos.x());
            axisChanged();
            break;
    }
    last_pos_ = pos;
}

void TimelineView::mouseReleaseEvent(QMouseEvent* event) {
    if (gesture_ == Gesture::kPressedTrace && event->button() == Qt::LeftButton) {
        const TimelineHit hit = hitAt(event->position());
        if (hit.kind == TimelineHit::Kind::kTraceEmpty ||
            hit.kind == TimelineHit::Kind::kTraceRequest) {
            session_->addRequest(hit.tick);
            // Zoomed out, a pixel spans many ticks: say which one the request went to.
            Q_EMIT statusMessage(axis_.pixelsPerTick() < 1.0
                                     ? tr("Added a request at t = %1, cost 1 (zoom in to place "
                                          "it more precisely)")
                                           .arg(hit.tick)
                                     : tr("Added a request at t = %1, cost 1").arg(hit.tick));
        }
    }
    gesture_ = Gesture::kIdle;
    updateHoverCursor(hitAt(event->position()));
}

void TimelineView::updateHoverCursor(const TimelineHit& hit) {
    switch (hit.kind) {
        case TimelineHit::Kind::kRuler:
            setCursor(Qt::SizeHorCursor);
            break;
        case TimelineHit::Kind::kTraceRequest:
            setCursor(Qt::OpenHandCursor);
            break;
        case TimelineHit::Kind::kTraceEmpty:
            setCursor(Qt::CrossCursor);
            break;
        case TimelineHit::Kind::kLaneDecision:
        case TimelineHit::Kind::kLaneName:
        case TimelineHit::Kind::kNote:
            setCursor(Qt::PointingHandCursor);
            break;
        default:
            unsetCursor();
    }
}

void TimelineView::wheelEvent(QWheelEvent* event) {
    const QPointF pos = event->position();
    const QPoint angle = event->angleDelta();
    if (angle.x() != 0 && angle.y() == 0) {
        axis_.pan(-static_cast<double>(angle.x()) / 2.0);
        axisChanged();
        return;
    }
    wheel_remainder_ += angle.y();
    const int notches = wheel_remainder_ / 120;
    wheel_remainder_ %= 120;
    if (notches == 0) {
        return;
    }
    if (event->modifiers() & Qt::ShiftModifier) {
        axis_.pan(-notches * axis_.width() * kPanFraction / 2.0);
        axisChanged();
        return;
    }
    const TimelineHit hit = hitAt(pos);
    if (hit.kind == TimelineHit::Kind::kTraceRequest &&
        !(event->modifiers() & Qt::ControlModifier)) {
        const IndexList& selection = session_->selection();
        const bool in_selection = std::binary_search(selection.begin(), selection.end(), hit.index);
        session_->stepCosts(in_selection ? selection : IndexList{hit.index}, notches);
        return;
    }
    axis_.zoom(std::pow(kZoomStep, notches), pos.x() - currentLayout().plot_left);
    axisChanged();
}

}  // namespace ratelab::ui
