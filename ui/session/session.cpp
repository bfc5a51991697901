#include "session/session.h"

#include <QFileInfo>
#include <QLocale>
#include <QUndoStack>
#include <algorithm>
#include <new>
#include <utility>

#include "commands/add_request_command.h"
#include "commands/change_costs_command.h"
#include "commands/change_durations_command.h"
#include "commands/change_fleet_command.h"
#include "commands/change_keys_command.h"
#include "commands/change_notes_command.h"
#include "commands/change_params_command.h"
#include "commands/move_requests_command.h"
#include "commands/remove_requests_command.h"
#include "ratelab/fleet.h"
#include "ratelab/io/fleet_file.h"
#include "ratelab/limits.h"
#include "session/document_files.h"
#include "session/simulation_run.h"

namespace ratelab::ui {

Session::Session(QObject* parent) : QObject(parent), undo_stack_(new QUndoStack(this)) {
    connect(undo_stack_, &QUndoStack::cleanChanged, this,
            [this](bool clean) { Q_EMIT modifiedChanged(!clean); });
    reset(SessionDocument::defaultScenario(), QString());
}

Session::~Session() = default;

bool Session::isModified() const {
    return !undo_stack_->isClean();
}

QString Session::displayName() const {
    if (!file_path_.isEmpty()) {
        return QFileInfo(file_path_).fileName();
    }
    if (!document_.name.empty()) {
        return QString::fromStdString(document_.name);
    }
    return tr("Untitled");
}

Tick Session::endTick() const {
    // The document's duration if it sets one; else one window past the last request, enough to
    // see it leave the window, and never before the leaky bucket has released everything.
    // The same rule as io::effective_duration, which `validate` reports.
    const auto& requests = document_.trace->requests;
    const Tick window = document_.params.base.window;
    const Tick last = requests.empty() ? 0 : requests.back().tick;
    const Tick duration = document_.duration.value_or(last + window);
    Rational longest_delay;
    if (result_) {
        for (const AlgorithmRun& run : result_->runs) {
            longest_delay = std::max(longest_delay, run.totals.max_delay);
        }
    }
    return std::max(duration, last + longest_delay.ceil() + 1);
}

QString Session::reset(SessionDocument document, const QString& file_path) {
    if (!document.trace) {
        document.trace = std::make_shared<const Trace>();
    }
    // Simulated before anything is replaced: a document that cannot be simulated must not
    // show up beside the previous document's decisions.
    std::shared_ptr<const SimulationResult> result;
    if (const QString error = simulateOrExplain(document, result); !error.isEmpty()) {
        return error;
    }
    document_ = std::move(document);
    result_ = std::move(result);
    undo_stack_->clear();
    // clear() leaves an empty stack as it was, so a recovered document's mark would stay.
    undo_stack_->setClean();
    selection_.clear();
    file_path_ = file_path;
    Q_EMIT resultChanged(result_);
    Q_EMIT documentReset();
    Q_EMIT fleetChanged();
    Q_EMIT notesChanged();
    Q_EMIT filePathChanged();
    Q_EMIT paramsChanged();
    Q_EMIT selectionChanged();
    Q_EMIT modifiedChanged(false);
    return {};
}

void Session::markSaved(const QString& file_path) {
    file_path_ = file_path;
    undo_stack_->setClean();
    Q_EMIT filePathChanged();
}

void Session::markUnsaved() {
    undo_stack_->resetClean();
}

void Session::addRequest(Tick tick, std::uint32_t cost) {
    tick = std::clamp<Tick>(tick, 0, bounds::kMaxTick);
    Request request;
    request.tick = tick;
    request.cost = cost;
    undo_stack_->push(new AddRequestCommand(this, insertionIndex(trace(), tick), request));
}

void Session::removeRequests(const IndexList& indices) {
    const IndexList valid = normalized(indices, trace().requests.size());
    if (!valid.empty()) {
        undo_stack_->push(new RemoveRequestsCommand(this, valid));
    }
}

IndexList Session::moveRequests(const IndexList& indices, Tick delta, int gesture) {
    const IndexList valid = normalized(indices, trace().requests.size());
    const Tick clamped = clampMoveDelta(trace(), valid, delta);
    if (valid.empty() || clamped == 0) {
        return valid;
    }
    undo_stack_->push(new MoveRequestsCommand(this, valid, clamped, gesture));
    return selection_;
}

void Session::setCosts(const IndexList& indices, const std::vector<std::uint32_t>& costs) {
    if (indices.empty() || costs == costsAt(trace(), indices)) {
        return;
    }
    undo_stack_->push(new ChangeCostsCommand(this, indices, costs));
}

void Session::stepCosts(const IndexList& indices, int delta) {
    const IndexList valid = normalized(indices, trace().requests.size());
    std::vector<std::uint32_t> costs = costsAt(trace(), valid);
    for (std::uint32_t& cost : costs) {
        cost = static_cast<std::uint32_t>(
            std::clamp<std::int64_t>(std::int64_t{cost} + delta, 1, bounds::kMaxCost));
    }
    setCosts(valid, costs);
}

QString Session::setDuration(const IndexList& indices, Tick duration) {
    if (duration < 0 || duration > bounds::kMaxWindow) {
        return tr("A duration is 1 to %1 ticks, or 0 for the lane's own; not %2.")
            .arg(bounds::kMaxWindow)
            .arg(duration);
    }
    const IndexList valid = normalized(indices, trace().requests.size());
    std::vector<Tick> durations(valid.size(), duration);
    if (valid.empty() || durations == durationsAt(trace(), valid)) {
        return {};
    }
    undo_stack_->push(new ChangeDurationsCommand(this, valid, std::move(durations)));
    return {};
}

QString Session::setKey(const IndexList& indices, const std::string& key) {
    const IndexList valid = normalized(indices, trace().requests.size());
    if (key.size() > bounds::kMaxKeyBytes) {
        return tr("A key holds at most %1 bytes; this one has %2.")
            .arg(bounds::kMaxKeyBytes)
            .arg(key.size());
    }
    const auto id = trace().find_key(key);
    const bool changes = std::any_of(valid.begin(), valid.end(), [&](std::size_t index) {
        return !id || trace().requests[index].key != *id;
    });
    if (changes) {
        undo_stack_->push(new ChangeKeysCommand(this, valid, key));
    }
    return {};
}

QString Session::setParams(const Params& params, const QString& description, int merge_key) {
    const std::vector<std::string> problems = validate(params);
    if (!problems.empty()) {
        return QString::fromStdString(problems.front());
    }
    if (params == document_.params) {
        return {};
    }
    undo_stack_->push(
        new ChangeParamsCommand(this, document_.params, params, description, merge_key));
    return {};
}

void Session::setSelection(IndexList indices) {
    indices = normalized(std::move(indices), trace().requests.size());
    if (indices != selection_) {
        selection_ = std::move(indices);
        Q_EMIT selectionChanged();
    }
}

void Session::applyTrace(Trace trace, IndexList selection, std::optional<TraceChange> change) {
    // The change is of the trace the shown result was simulated from, unless that one failed.
    if (!result_ || result_->trace != document_.trace)
        change.reset();
    // The trace it replaces lives on while the shown result or an undo command holds it; the
    // two share every chunk of requests the edit did not change.
    document_.trace = std::make_shared<const Trace>(std::move(trace));
    selection_ = normalized(std::move(selection), document_.trace->requests.size());
    // Only the trace changed: the decisions before the first changed request stay as they were.
    resimulate(
        result_ && result_->params == without_hidden_lanes(document_.params) ? result_ : nullptr,
        change);
    Q_EMIT selectionChanged();
}

std::optional<io::FleetFile> Session::fleet() const {
    return fleetOf(document_);
}

QString Session::setFleet(const io::FleetFile& fleet, const QString& description) {
    const std::vector<std::string> problems = validate(fleet.settings);
    if (!problems.empty())
        return QString::fromStdString(problems.front());
    std::optional<io::FleetFile> now = this->fleet();
    if (now && now->settings == fleet.settings && now->lane == fleet.lane)
        return {};
    undo_stack_->push(new ChangeFleetCommand(this, std::move(now), fleet, description));
    return {};
}

QString Session::setNotes(std::vector<TraceNote> notes, const QString& description) {
    if (notes.size() > bounds::kMaxNotes)
        return tr("A trace holds at most %1 notes.").arg(bounds::kMaxNotes);
    for (const TraceNote& note : notes) {
        if (note.tick < 0 || note.tick > bounds::kMaxTick)
            return tr("A note's tick is from 0 to 10^12.");
        if (note.text.find_first_not_of(" \t\r\n") == std::string::npos)
            return tr("A note needs some text.");
        if (note.text.size() > bounds::kMaxNoteBytes)
            return tr("A note is at most %1 bytes long; this one has %2.")
                .arg(bounds::kMaxNoteBytes)
                .arg(note.text.size());
    }
    std::stable_sort(notes.begin(), notes.end(),
                     [](const TraceNote& a, const TraceNote& b) { return a.tick < b.tick; });
    if (notes == document_.notes)
        return {};
    undo_stack_->push(new ChangeNotesCommand(this, document_.notes, std::move(notes), description));
    return {};
}

void Session::applyNotes(std::vector<TraceNote> notes) {
    document_.notes = std::move(notes);
    Q_EMIT notesChanged();
}

void Session::applyFleet(const std::optional<io::FleetFile>& fleet) {
    document_.extras = extrasWithFleet(document_, fleet);
    Q_EMIT fleetChanged();
}

void Session::applyParams(const Params& params) {
    document_.params = params;
    resimulate();
    Q_EMIT paramsChanged();
}

QString Session::simulateOrExplain(const SessionDocument& document,
                                   std::shared_ptr<const SimulationResult>& result,
                                   const std::shared_ptr<const SimulationResult>& previous,
                                   std::optional<TraceChange> change) {
    cancelled_ = false;
    const int generation = ++generation_;
    const QString what =
        tr("Simulating %1 requests in %2 lanes…")
            .arg(QLocale().toString(static_cast<qulonglong>(document.trace->requests.size())))
            .arg(lanes_of(without_hidden_lanes(document.params)).size());
    try {
        // Hidden lanes are a view's choice: they are kept in the document, not simulated.
        // Copies for the worker thread: an edit made while it runs replaces the document's.
        const Params params = without_hidden_lanes(document.params);
        const std::shared_ptr<const Trace> trace = document.trace;
        const std::shared_ptr<const SimulationResult> before = previous;
        const auto work = [&params, trace, before, change](const RunOptions& options) {
            return before ? ratelab::resimulate(*before, trace, options, change)
                          : simulate(trace, params, {}, options);
        };
        result = SimulationRun::run(work, estimatedDecisions(*trace, params), what);
    } catch (const SimulationCancelled&) {
        cancelled_ = true;
        return tr("the simulation was cancelled");
    } catch (const std::bad_alloc&) {
        return tr("there is not enough memory to simulate this trace");
    } catch (const std::exception& error) {
        return QString::fromStdString(error.what());
    }
    if (generation != generation_) {
        // Another simulation started and finished while this one ran (a timer's change while
        // the progress dialog was up): its result is the newer one.
        return tr("a newer change was simulated meanwhile");
    }
    return {};
}

void Session::resimulate(const std::shared_ptr<const SimulationResult>& previous,
                         std::optional<TraceChange> change) {
    std::shared_ptr<const SimulationResult> result;
    const int generation = generation_ + 1;
    if (const QString error = simulateOrExplain(document_, result, previous, change);
        !error.isEmpty()) {
        if (generation != generation_)
            return;  // superseded: the newer simulation has published or explained itself
        // The edit stays (it can be undone), but views keep showing the last good result.
        Q_EMIT simulationFailed(cancelled_ ? tr("cancelled; the figures are from before this "
                                                "change: undo it, or change something to "
                                                "simulate again")
                                           : error);
        return;
    }
    result_ = std::move(result);
    Q_EMIT resultChanged(result_);
}

}  // namespace ratelab::ui
