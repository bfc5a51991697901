#pragma once

#include <QWidget>
#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

#include "ratelab/quiz.h"
#include "session/session_document.h"

class QCheckBox;
class QLabel;
class QLineEdit;
class QPushButton;
class QSpinBox;

namespace ratelab::ui {

class PlaybackClock;

/// Interview drills in the app: the questions `ratelab-cli quiz --seed N --count K` asks, one at
/// a time. Each question's trace and lanes open as the document (asking first to save the
/// user's work), with the clock stopped before the answer shows; the learner answers (lanes to
/// tick, request indexes or a number), Check grades it with the engine's why, and Next goes on.
/// The score counts first answers only, so checking again after a reveal earns nothing.
class DrillPanel : public QWidget {
    Q_OBJECT

public:
    /// Opens a document as the session's; false when the user kept the one they had.
    using OpenDocument = std::function<bool(SessionDocument)>;

    DrillPanel(PlaybackClock* clock, OpenDocument open, QWidget* parent = nullptr);

    /// Draws the questions of the seed and count in the fields and opens the first; false (and
    /// the drill as it was) when the user kept their own document.
    bool start();
    /// A fresh seed in the field, then start().
    bool newDrill();
    /// Goes to question `index`; false when the user kept their own document.
    bool showQuestion(std::size_t index);
    /// Grades the answer given, once; a graded question reveals its decisions.
    void check();
    /// The next question, or the summary after the last.
    void next();

    const std::vector<Question>& questions() const { return questions_; }
    std::optional<std::size_t> current() const { return current_; }
    /// Questions answered right the first time, and questions answered at all.
    int right() const;
    int answered() const;

    // For tests: the fields and the verdict.
    QSpinBox* seedField() const { return seed_; }
    QSpinBox* countField() const { return count_; }
    QLineEdit* answerField() const { return answer_; }
    const std::vector<QCheckBox*>& laneChoices() const { return lane_choices_; }
    QLabel* verdictLabel() const { return verdict_; }
    QLabel* questionLabel() const { return question_; }

protected:
    void keyPressEvent(QKeyEvent* event) override;

private:
    void showAnswerFields();
    void showSummary();
    void updateScore();

    PlaybackClock* clock_;
    OpenDocument open_;
    std::uint64_t drawn_seed_ = 0;
    std::vector<Question> questions_;
    std::vector<std::optional<bool>> results_;  // per question: right, wrong, or not answered
    std::optional<std::size_t> current_;
    QSpinBox* seed_;
    QSpinBox* count_;
    QPushButton* start_;
    QPushButton* new_drill_;
    QWidget* answer_box_;  // the answering column: hidden until a drill starts
    QLabel* heading_;
    QLabel* question_;
    QLabel* prompt_;
    QWidget* choices_box_;
    std::vector<QCheckBox*> lane_choices_;
    QLineEdit* answer_;
    QPushButton* check_;
    QPushButton* next_;
    QLabel* verdict_;
    QLabel* score_;
};

}  // namespace ratelab::ui
