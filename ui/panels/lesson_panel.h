#pragma once

#include <QWidget>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "ratelab/lesson.h"
#include "session/session_document.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QTextBrowser;

namespace ratelab::ui {

class PlaybackClock;
class Session;

/// The lesson browser: the bundled lessons (or one opened from a file), step by step. Each
/// step opens its trace and lanes as the document (asking first to save the user's work),
/// stops the clock where the step says, narrates, and asks its question; Check grades the
/// answer with the engine's reason, Hint gives the hints one at a time, and a "try it" step
/// watches the user's edits until its goal is met. Finished steps are remembered per lesson.
class LessonPanel : public QWidget {
    Q_OBJECT

public:
    /// Opens a document as the session's; false when the user kept the one they had.
    using OpenDocument = std::function<bool(SessionDocument)>;

    LessonPanel(Session* session, PlaybackClock* clock, OpenDocument open,
                QWidget* parent = nullptr);

    /// Reads the lessons of `folder` (the bundled ones unless given) into the chooser; files
    /// that do not load are listed in the status line rather than offered.
    void loadFolder(const QString& folder);
    /// Shows `lesson` from its first step (or the first not yet finished).
    void showLesson(Lesson lesson);
    /// Goes to step `step`; false when the user kept their own document.
    bool showStep(std::size_t step);

    const std::vector<Lesson>& lessons() const { return lessons_; }
    std::optional<std::size_t> currentStep() const { return step_; }

    // For tests: the answer fields and the verdict.
    QLineEdit* answerField() const { return answer_; }
    const std::vector<QCheckBox*>& laneChoices() const { return lane_choices_; }
    QLabel* verdictLabel() const { return verdict_; }
    void check();
    void hint();

Q_SIGNALS:
    /// The open step's highlights over `trace`, its own (empty when no step is open any more:
    /// another document took its place).
    void highlightsChanged(std::vector<ratelab::Highlight> highlights,
                           std::shared_ptr<const ratelab::Trace> trace);

private:
    void chooseLesson(int index);
    void showQuestion();
    void watchTryIt();
    void markDone();
    QString progressKey() const;

    Session* session_;
    PlaybackClock* clock_;
    OpenDocument open_;
    std::vector<Lesson> lessons_;
    std::optional<Lesson> lesson_;
    std::optional<std::size_t> step_;
    std::size_t hints_shown_ = 0;
    bool opening_ = false;  // a step's document is being opened: its result is not an edit
    QComboBox* chooser_;
    QLabel* progress_;
    QTextBrowser* narration_;
    QLabel* prompt_;
    QWidget* choices_box_;
    std::vector<QCheckBox*> lane_choices_;
    QLineEdit* answer_;
    QPushButton* check_;
    QPushButton* hint_;
    QLabel* verdict_;
    QPushButton* previous_;
    QPushButton* next_;
    QLabel* status_;
};

}  // namespace ratelab::ui
