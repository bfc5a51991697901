#pragma once

#include <QObject>
#include <QString>
#include <cstdint>
#include <memory>
#include <optional>
#include <vector>

#include "ratelab/simulation.h"
#include "session/session_document.h"
#include "session/trace_edits.h"

class QUndoStack;

namespace ratelab::io {
struct FleetFile;
}

namespace ratelab::ui {

/// The open document: the trace, its parameters, the file it came from and its undo history.
///
/// Widgets never change the trace themselves: they call the edit functions below, each of which
/// pushes one undo command. After every change the session re-simulates all algorithms and
/// publishes the new immutable result with resultChanged().
class Session : public QObject {
    Q_OBJECT

public:
    explicit Session(QObject* parent = nullptr);
    ~Session() override;

    const SessionDocument& document() const { return document_; }
    const Trace& trace() const { return *document_.trace; }
    const Params& params() const { return document_.params; }
    std::shared_ptr<const SimulationResult> result() const { return result_; }
    QUndoStack* undoStack() const { return undo_stack_; }

    /// The file the document was loaded from or saved to; empty for a new document.
    const QString& filePath() const { return file_path_; }
    bool isModified() const;
    /// The file name, else the document's name, else "Untitled".
    QString displayName() const;
    /// The last tick worth showing: the trace, its queue delays and the document's duration.
    Tick endTick() const;

    /// Replaces the whole document and forgets the undo history. If the new document cannot be
    /// simulated, or the user cancels a long simulation (wasCancelled()), changes nothing and
    /// returns why (else an empty string). A long simulation runs behind a progress dialog.
    QString reset(SessionDocument document, const QString& file_path);
    /// Whether the last simulation failed because the user cancelled it.
    bool wasCancelled() const { return cancelled_; }
    /// Records that the document now matches the file at `file_path`.
    void markSaved(const QString& file_path);
    /// Records that the document differs from its file although the undo history is empty (work
    /// recovered from an autosave): it counts as modified until it is saved.
    void markUnsaved();

    // Edits. Each is one undoable step.
    void addRequest(Tick tick, std::uint32_t cost = 1);
    void removeRequests(const IndexList& indices);
    /// Moves by `delta` ticks (clamped at tick 0). Moves with the same `gesture` merge into one
    /// undo step. Returns where the requests are afterwards.
    IndexList moveRequests(const IndexList& indices, Tick delta, int gesture);
    void setCosts(const IndexList& indices, const std::vector<std::uint32_t>& costs);
    /// Adds `delta` to each cost, keeping costs within [1, max cost].
    void stepCosts(const IndexList& indices, int delta);
    /// Sets how long each request at `indices` holds what it takes to `duration` ticks (0: the
    /// concurrency lane's own), one undo step. Returns why it cannot (out of [0, bounds]), else
    /// an empty string.
    QString setDuration(const IndexList& indices, Tick duration);
    /// Gives the requests at `indices` the key `key` (one undo step). Returns why it cannot (a
    /// key longer than bounds::kMaxKeyBytes or not UTF-8), else an empty string.
    QString setKey(const IndexList& indices, const std::string& key);
    /// Applies new parameters if they are valid; otherwise returns why not and changes nothing.
    /// Consecutive changes with the same non-zero `merge_key` merge into one undo step.
    QString setParams(const Params& params, const QString& description, int merge_key);
    /// A fresh id for a drag, so that separate drags never merge.
    int newGesture() { return ++last_gesture_; }

    /// The fleet settings the document keeps (its "fleet" object), or nothing when it has none.
    std::optional<io::FleetFile> fleet() const;
    /// Keeps `fleet` in the document as one undo step if it is valid (see validate() in
    /// fleet.h); otherwise returns why not, one sentence naming the setting, and changes nothing.
    QString setFleet(const io::FleetFile& fleet, const QString& description);

    /// The notes pinned to the trace's ticks, in tick order.
    const std::vector<TraceNote>& notes() const { return document_.notes; }
    /// Replaces the notes as one undo step (`description` its name in the Edit menu), put in
    /// tick order; returns why not and changes nothing when a note breaks a rule of the trace
    /// file (a tick outside 0 to 10^12, no text, a text over bounds::kMaxNoteBytes bytes, more
    /// than bounds::kMaxNotes notes).
    QString setNotes(std::vector<TraceNote> notes, const QString& description);

    /// The selected requests. Not part of the undo history, but undo restores it.
    const IndexList& selection() const { return selection_; }
    void setSelection(IndexList indices);

    // For undo commands only. `change`, when the command knows it, says which requests the
    // edit replaced (changeOf()), so that a long trace is neither compared nor checked whole.
    void applyTrace(Trace trace, IndexList selection, std::optional<TraceChange> change = {});
    void applyParams(const Params& params);
    void applyFleet(const std::optional<io::FleetFile>& fleet);
    void applyNotes(std::vector<TraceNote> notes);

Q_SIGNALS:
    void resultChanged(std::shared_ptr<const ratelab::SimulationResult> result);
    /// A different document was loaded (New, Open, a scenario).
    void documentReset();
    void paramsChanged();
    /// The document's fleet settings changed (an edit, its undo, or a new document).
    void fleetChanged();
    /// The notes changed (an edit, its undo, or a new document).
    void notesChanged();
    void selectionChanged();
    void filePathChanged();
    void modifiedChanged(bool modified);
    /// A change could not be simulated; the previous result stays.
    void simulationFailed(const QString& message);

private:
    /// Simulates the document; `previous`, a result for the same parameters, lets it reuse the
    /// decisions before the first changed request, and `change` (of previous->trace) says
    /// which those are.
    void resimulate(const std::shared_ptr<const SimulationResult>& previous = nullptr,
                    std::optional<TraceChange> change = {});
    /// Simulates `document` into `result`; returns why it could not (else an empty string).
    QString simulateOrExplain(const SessionDocument& document,
                              std::shared_ptr<const SimulationResult>& result,
                              const std::shared_ptr<const SimulationResult>& previous = {},
                              std::optional<TraceChange> change = {});

    SessionDocument document_;
    std::shared_ptr<const SimulationResult> result_;
    QUndoStack* undo_stack_;
    QString file_path_;
    IndexList selection_;
    int last_gesture_ = 0;
    int generation_ = 0;  // simulations started: a run that finds it moved on was superseded
    bool cancelled_ = false;
};

}  // namespace ratelab::ui
