// TimelineView's keyboard and menu actions: zoom, pan, selection and edits of the selection.
#include <QFontMetrics>
#include <QHelpEvent>
#include <QInputDialog>
#include <QLineEdit>
#include <QMenu>
#include <QMessageBox>
#include <QToolTip>
#include <algorithm>
#include <optional>

#include "charts/algorithm_names.h"
#include "charts/tick_text.h"
#include "ratelab/limits.h"
#include "session/playback_clock.h"
#include "session/session.h"
#include "timeline/decision_tooltip.h"
#include "timeline/timeline_view.h"

namespace ratelab::ui {

void TimelineView::zoomIn() {
    axis_.zoom(kZoomStep, axis_.toX(static_cast<double>(clock_->now()) + 0.5));
    axisChanged();
}

void TimelineView::zoomOut() {
    axis_.zoom(1.0 / kZoomStep, axis_.toX(static_cast<double>(clock_->now()) + 0.5));
    axisChanged();
}

void TimelineView::fitToTrace() {
    axis_.fit();
    axisChanged();
}

void TimelineView::panLeft() {
    axis_.pan(-axis_.width() * kPanFraction);
    axisChanged();
}

void TimelineView::panRight() {
    axis_.pan(axis_.width() * kPanFraction);
    axisChanged();
}

void TimelineView::selectNext() {
    const Trace& trace = session_->trace();
    if (trace.requests.empty()) {
        return;
    }
    const IndexList& selection = session_->selection();
    std::size_t next =
        selection.empty() ? countUpTo(trace, clock_->now() - 1) : selection.back() + 1;
    next = std::min(next, trace.requests.size() - 1);
    session_->setSelection({next});
    axis_.ensureVisible(static_cast<double>(trace.requests[next].tick) + 0.5, 40.0);
    axisChanged();
}

void TimelineView::selectPrevious() {
    const Trace& trace = session_->trace();
    if (trace.requests.empty()) {
        return;
    }
    const IndexList& selection = session_->selection();
    std::size_t previous = selection.empty() ? countUpTo(trace, clock_->now()) : selection.front();
    previous = previous == 0 ? 0 : previous - 1;
    session_->setSelection({previous});
    axis_.ensureVisible(static_cast<double>(trace.requests[previous].tick) + 0.5, 40.0);
    axisChanged();
}

void TimelineView::selectAll() {
    IndexList all(session_->trace().requests.size());
    for (std::size_t i = 0; i < all.size(); ++i) {
        all[i] = i;
    }
    session_->setSelection(std::move(all));
}

void TimelineView::moveSelection(int delta) {
    const IndexList moved =
        session_->moveRequests(session_->selection(), delta, session_->newGesture());
    if (!moved.empty()) {
        axis_.ensureVisible(
            static_cast<double>(session_->trace().requests[moved.front()].tick) + 0.5, 40.0);
        axisChanged();
    }
}

void TimelineView::increaseCost() {
    session_->stepCosts(session_->selection(), +1);
}

void TimelineView::decreaseCost() {
    session_->stepCosts(session_->selection(), -1);
}

void TimelineView::askDuration() {
    const IndexList targets = session_->selection();
    if (targets.empty()) {
        return;
    }
    // A double holds every whole number up to the bound (10^12) exactly, where an int stops at
    // 2^31 - 1.
    bool ok = false;
    const double chosen = QInputDialog::getDouble(
        this, tr("Request duration"),
        tr("Ticks the %n selected request(s) hold what they take, for the concurrency lane\n"
           "(0: the lane's own duration):",
           nullptr, static_cast<int>(targets.size())),
        static_cast<double>(session_->trace().duration(targets.front())), 0,
        static_cast<double>(bounds::kMaxWindow), 0, &ok);
    if (!ok) {
        return;
    }
    if (const QString problem = session_->setDuration(targets, static_cast<Tick>(chosen));
        !problem.isEmpty()) {
        QMessageBox::warning(this, tr("Request duration"), problem);
    }
}

void TimelineView::askKey() {
    const IndexList targets = session_->selection();
    if (targets.empty()) {
        return;
    }
    const Trace& trace = session_->trace();
    // The keys the trace has, to pick from, or a new one typed in; the default key by name.
    constexpr std::size_t kListed = 100;
    const QString default_key = keyName({});
    QStringList choices{default_key};
    for (std::size_t id = 1; id < trace.keys.size() && choices.size() <= qsizetype(kListed); ++id) {
        choices << QString::fromStdString(trace.keys[id]);
    }
    const std::string& now = trace.key_name(trace.requests[targets.front()].key);
    const qsizetype current = now.empty() ? 0 : choices.indexOf(QString::fromStdString(now));
    bool ok = false;
    const QString chosen = QInputDialog::getItem(
        this, tr("Request key"),
        targets.size() == 1 ? tr("Key of the selected request: pick one, or type a new one")
                            : tr("Key of the %1 selected requests: pick one, or type a new one")
                                  .arg(targets.size()),
        choices, static_cast<int>(std::max<qsizetype>(0, current)), true, &ok);
    if (!ok) {
        return;
    }
    const std::string key = chosen == default_key ? std::string() : chosen.toStdString();
    if (const QString problem = session_->setKey(targets, key); !problem.isEmpty()) {
        QMessageBox::warning(this, tr("Request key"), problem);
    }
}

namespace {

/// Asks for a note's text in a dialog; nothing when cancelled.
std::optional<QString> askNoteText(QWidget* parent, const QString& title, Tick tick,
                                   const QString& text) {
    bool ok = false;
    const QString typed = QInputDialog::getText(
        parent, title,
        TimelineView::tr("Note at t = %1 (at most %2 bytes; shown on the timeline and in exports):")
            .arg(tick)
            .arg(bounds::kMaxNoteBytes),
        QLineEdit::Normal, text, &ok);
    return ok ? std::optional(typed) : std::nullopt;
}

}  // namespace

void TimelineView::addNote(Tick tick) {
    const auto text = askNoteText(this, tr("Add note"), tick, {});
    if (!text || text->trimmed().isEmpty())
        return;
    std::vector<TraceNote> notes = session_->notes();
    notes.push_back({tick, text->trimmed().toStdString()});
    if (const QString problem =
            session_->setNotes(std::move(notes), tr("Add note at t = %1").arg(tick));
        !problem.isEmpty())
        QMessageBox::warning(this, tr("Add note"), problem);
}

void TimelineView::addNoteAtClock() {
    addNote(clock_->now());
}

void TimelineView::editNote(std::size_t index) {
    if (index >= session_->notes().size())
        return;
    const TraceNote note = session_->notes()[index];
    const auto text =
        askNoteText(this, tr("Edit note"), note.tick, QString::fromStdString(note.text));
    if (!text)
        return;
    if (text->trimmed().isEmpty()) {
        deleteNote(index);
        return;
    }
    std::vector<TraceNote> notes = session_->notes();
    notes[index].text = text->trimmed().toStdString();
    if (const QString problem =
            session_->setNotes(std::move(notes), tr("Edit note at t = %1").arg(note.tick));
        !problem.isEmpty())
        QMessageBox::warning(this, tr("Edit note"), problem);
}

void TimelineView::deleteNote(std::size_t index) {
    if (index >= session_->notes().size())
        return;
    std::vector<TraceNote> notes = session_->notes();
    const Tick tick = notes[index].tick;
    notes.erase(notes.begin() + static_cast<std::ptrdiff_t>(index));
    session_->setNotes(std::move(notes), tr("Delete note at t = %1").arg(tick));
}

void TimelineView::mouseDoubleClickEvent(QMouseEvent* event) {
    const TimelineHit hit = hitAt(event->position());
    if (event->button() == Qt::LeftButton && hit.kind == TimelineHit::Kind::kNote)
        editNote(hit.index);
    else if (event->button() == Qt::LeftButton && hit.kind == TimelineHit::Kind::kNotesEmpty)
        addNote(hit.tick);
    else
        QWidget::mouseDoubleClickEvent(event);
}

void TimelineView::deleteSelection() {
    session_->removeRequests(session_->selection());
}

void TimelineView::showContextMenu(const TimelineHit& hit, QPoint global_pos) {
    QMenu menu(this);
    if (hit.kind == TimelineHit::Kind::kTraceRequest ||
        hit.kind == TimelineHit::Kind::kLaneDecision) {
        const IndexList& current = session_->selection();
        if (!std::binary_search(current.begin(), current.end(), hit.index)) {
            session_->setSelection({hit.index});
        }
        const IndexList targets = session_->selection();
        const std::uint32_t cost = session_->trace().requests[hit.index].cost;
        QMenu* costs = menu.addMenu(tr("Cost (now %1)").arg(cost));
        for (const std::uint32_t value : {1U, 2U, 3U, 4U, 5U, 10U}) {
            QAction* action =
                costs->addAction(QString::number(value), this, [this, targets, value] {
                    session_->setCosts(targets, std::vector<std::uint32_t>(targets.size(), value));
                });
            action->setCheckable(true);
            action->setChecked(value == cost);
        }
        costs->addSeparator();
        costs->addAction(tr("Other…"), this, [this, targets, cost] {
            bool ok = false;
            const int value = QInputDialog::getInt(
                this, tr("Request cost"), tr("Cost of the selected requests:"),
                static_cast<int>(cost), 1, static_cast<int>(bounds::kMaxCost), 1, &ok);
            if (ok) {
                session_->setCosts(targets, std::vector<std::uint32_t>(
                                                targets.size(), static_cast<std::uint32_t>(value)));
            }
        });
        const std::string& key =
            session_->trace().key_name(session_->trace().requests[hit.index].key);
        menu.addAction(tr("Key: %1…").arg(keyName(key)), QKeySequence(Qt::Key_K), this,
                       &TimelineView::askKey);
        const Tick duration = session_->trace().duration(hit.index);
        menu.addAction(duration == 0 ? tr("Duration: the lane's…")
                                     : tr("Duration: %1…").arg(ticksText(duration)),
                       QKeySequence(Qt::Key_D), this, &TimelineView::askDuration);
        menu.addAction(tr("Increase cost"), QKeySequence(Qt::Key_Plus), this,
                       &TimelineView::increaseCost);
        menu.addAction(tr("Decrease cost"), QKeySequence(Qt::Key_Minus), this,
                       &TimelineView::decreaseCost);
        menu.addSeparator();
        menu.addAction(tr("Delete"), QKeySequence(QKeySequence::Delete), this,
                       &TimelineView::deleteSelection);
    } else if (hit.kind == TimelineHit::Kind::kTraceEmpty) {
        const Tick tick = hit.tick;
        menu.addAction(tr("Add request at t = %1").arg(tick), this,
                       [this, tick] { session_->addRequest(tick); });
    }
    if (hit.kind == TimelineHit::Kind::kNote) {
        // Every note of the tick, each to edit or delete.
        const std::vector<TraceNote>& notes = session_->notes();
        for (std::size_t i = hit.index; i < notes.size() && notes[i].tick == notes[hit.index].tick;
             ++i) {
            const QString text = QFontMetrics(font()).elidedText(
                QString::fromStdString(notes[i].text), Qt::ElideRight, 200);
            menu.addAction(tr("Edit Note “%1”…").arg(text), this, [this, i] { editNote(i); });
            menu.addAction(tr("Delete Note “%1”").arg(text), this, [this, i] { deleteNote(i); });
        }
        menu.addSeparator();
    } else if (hit.kind != TimelineHit::Kind::kNothing &&
               hit.kind != TimelineHit::Kind::kLaneName) {
        const Tick tick = hit.tick;
        menu.addAction(tr("Add Note at t = %1…").arg(tick), this, [this, tick] { addNote(tick); });
    }
    if (hit.kind != TimelineHit::Kind::kNothing && hit.kind != TimelineHit::Kind::kLaneName) {
        const Tick tick = hit.tick;
        menu.addAction(tr("Move the clock to t = %1").arg(tick), this,
                       [this, tick] { clock_->setNow(tick); });
        menu.addSeparator();
    }
    menu.addAction(tr("Zoom in"), QKeySequence(QKeySequence::ZoomIn), this, &TimelineView::zoomIn);
    menu.addAction(tr("Zoom out"), QKeySequence(QKeySequence::ZoomOut), this,
                   &TimelineView::zoomOut);
    menu.addAction(tr("Fit to trace"), QKeySequence(Qt::CTRL | Qt::Key_0), this,
                   &TimelineView::fitToTrace);
    menu.exec(global_pos);
}

// Tooltips: what is under the pointer, explained.
bool TimelineView::event(QEvent* event) {
    if (event->type() == QEvent::Leave && hovered_) {
        hovered_.reset();
        update();
    }
    if (event->type() != QEvent::ToolTip) {
        return QWidget::event(event);
    }
    const auto* help = static_cast<QHelpEvent*>(event);
    const TimelineScene current = scene();
    const TimelineHit hit = hitTest(current, help->pos());
    QString text;
    if (const auto summarized = summarizedAt(current, help->pos())) {
        // A bar of a zoomed-out column, or a pile: what it stands for, counted.
        text = tallyTooltip(frame_, hit.lane, summarized->first, summarized->second, hit.key);
    } else
        switch (hit.kind) {
            case TimelineHit::Kind::kRuler:
                text = tr("Drag along the ruler to move the clock (now t = %1)").arg(frame_.now);
                break;
            case TimelineHit::Kind::kTraceEmpty:
                text = tr("Click to add a request at t = %1").arg(hit.tick);
                break;
            case TimelineHit::Kind::kTraceRequest:
                text = requestTooltip(frame_, hit.index);
                break;
            case TimelineHit::Kind::kLaneDecision:
                text = decisionTooltip(frame_, static_cast<std::size_t>(hit.lane), hit.index,
                                       QToolTip::palette());
                break;
            case TimelineHit::Kind::kLaneName:
                if (frame_.result &&
                    static_cast<std::size_t>(hit.lane) < frame_.result->runs.size()) {
                    const AlgorithmRun& run =
                        frame_.result->runs[static_cast<std::size_t>(hit.lane)];
                    text =
                        QStringLiteral("<b>%1</b><br>%2<br><i>%3</i>")
                            .arg(laneName(run.id, run.label).toHtmlEscaped(),
                                 algorithmSummary(run.id).toHtmlEscaped(),
                                 tr("Click to highlight it and read about it in the Learn panel."));
                }
                break;
            case TimelineHit::Kind::kLaneRetry:
                if (current.retries &&
                    static_cast<std::size_t>(hit.lane) < current.retries->lanes.size())
                    text = retryTooltip(frame_, static_cast<std::size_t>(hit.lane),
                                        current.retries->lanes[static_cast<std::size_t>(hit.lane)],
                                        hit.index, QToolTip::palette());
                break;
            case TimelineHit::Kind::kNote:
                text = noteTooltip(session_->notes(), hit.index);
                break;
            case TimelineHit::Kind::kNotesEmpty:
                text = tr("Double-click to pin a note to t = %1").arg(hit.tick);
                break;
            case TimelineHit::Kind::kLaneEmpty:
            case TimelineHit::Kind::kNothing:
                break;
        }
    if (text.isEmpty()) {
        QToolTip::hideText();
        event->ignore();
    } else {
        QToolTip::showText(help->globalPos(), text, this);
    }
    return true;
}

}  // namespace ratelab::ui
