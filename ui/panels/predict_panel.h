#pragma once

#include <QPointer>
#include <QShortcut>
#include <QWidget>
#include <memory>
#include <vector>

#include "ratelab/predict.h"

class QButtonGroup;
class QLabel;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace ratelab::ui {

class PlaybackClock;
class Session;

/// Predict mode: the clock stops before each request, the learner says for each shown lane
/// whether it will accept or reject it (digits toggle lane 1, 2, ...; Enter reveals, then goes
/// on; N skips), and for a shaper may type roughly when it lets the request out; the reveal
/// grades each with the lane's own reason. Scores per lane and in
/// all, a streak, and at the end the wrong predictions, each a click away from its tick.
class PredictPanel : public QWidget {
    Q_OBJECT

public:
    PredictPanel(Session* session, PlaybackClock* clock, QWidget* parent = nullptr);
    ~PredictPanel() override;

    /// Starts a round from the first request, over the lanes on show.
    void start();
    /// Ends the round; the clock is the user's again.
    void stop();
    bool isActive() const { return round_ != nullptr; }
    const PredictRound* round() const { return round_.get(); }

    // The keyboard's actions, also the buttons'.
    void toggleLane(int slot);
    /// Reveals the predictions, or after a reveal goes on to the next request.
    void revealOrNext();
    void skip();

    /// For tests: the summary's list of wrong predictions.
    QListWidget* mistakesList() const { return mistakes_; }
    /// For tests: the release field of the lane in `slot` (nothing unless it shapes).
    QLineEdit* releaseField(std::size_t slot) const;

Q_SIGNALS:
    void activeChanged(bool active);

private:
    void rebuildRows();
    void showRound();
    void showSummary();
    void moveClock();
    void jumpToMistake(int row);
    void typeRelease(std::size_t slot, const QString& typed);
    void clearReleaseFields();
    /// After a reveal: a shaper's release, and the grade of the one guessed.
    static QString releaseText(const PredictRound::Outcome& outcome);

    struct Row;
    Session* session_;
    PlaybackClock* clock_;
    std::unique_ptr<PredictRound> round_;
    QLabel* heading_;
    QWidget* rows_widget_;
    std::vector<std::unique_ptr<Row>> rows_;
    QLabel* score_;
    QPushButton* reveal_;
    QPushButton* skip_;
    QPushButton* start_stop_;
    QLabel* summary_heading_;
    QListWidget* mistakes_;
    /// Children of the window, which may delete them before or after the panel.
    std::vector<QPointer<QShortcut>> shortcuts_;
};

}  // namespace ratelab::ui
