#include "panels/predict_panel.h"

#include <QButtonGroup>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QPushButton>
#include <QShortcut>
#include <QVBoxLayout>

#include "charts/algorithm_names.h"
#include "session/playback_clock.h"
#include "session/session.h"

namespace ratelab::ui {

namespace {

constexpr int kMaxKeyedLanes = 9;  // digits 1 to 9

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

QString verdict(bool accepted) {
    return accepted ? PredictPanel::tr("accepted") : PredictPanel::tr("rejected");
}

QString tickText(const Rational& tick) {
    return QString::fromStdString(tick.to_string());
}

/// The release a learner typed ("12", "12.5", "25/2"); nothing when it does not read as one.
std::optional<Rational> readRelease(const QString& typed) {
    const auto answer = parse_answer(typed.trimmed().toStdString(), Answer::Form::number);
    if (!answer || answer->form != Answer::Form::number || answer->number < Rational())
        return std::nullopt;
    return answer->number;
}

}  // namespace

/// One lane's line: its digit and name, the two answers, for a shaper the release guessed, its
/// score and, after a reveal, the verdict with the lane's reason.
struct PredictPanel::Row {
    QLabel* name = nullptr;
    QPushButton* accept = nullptr;
    QPushButton* reject = nullptr;
    QLineEdit* release = nullptr;  ///< shapers only
    QButtonGroup* answers = nullptr;
    QLabel* score = nullptr;
    QLabel* why = nullptr;
};

PredictPanel::PredictPanel(Session* session, PlaybackClock* clock, QWidget* parent)
    : QWidget(parent),
      session_(session),
      clock_(clock),
      heading_(new QLabel(this)),
      rows_widget_(new QWidget(this)),
      score_(new QLabel(this)),
      reveal_(new QPushButton(tr("Reveal (Enter)"), this)),
      skip_(new QPushButton(tr("Skip (N)"), this)),
      start_stop_(new QPushButton(tr("Start predicting"), this)),
      summary_heading_(new QLabel(this)),
      mistakes_(new QListWidget(this)) {
    heading_->setWordWrap(true);
    summary_heading_->setWordWrap(true);
    new QGridLayout(rows_widget_);
    auto* buttons = new QHBoxLayout;
    buttons->addWidget(reveal_);
    buttons->addWidget(skip_);
    buttons->addStretch(1);
    buttons->addWidget(start_stop_);
    auto* layout = new QVBoxLayout(this);
    layout->addWidget(heading_);
    layout->addWidget(rows_widget_);
    layout->addLayout(buttons);
    layout->addWidget(score_);
    layout->addWidget(summary_heading_);
    layout->addWidget(mistakes_, 1);
    layout->addStretch(0);

    connect(reveal_, &QPushButton::clicked, this, &PredictPanel::revealOrNext);
    connect(skip_, &QPushButton::clicked, this, &PredictPanel::skip);
    connect(start_stop_, &QPushButton::clicked, this, [this] { isActive() ? stop() : start(); });
    connect(mistakes_, &QListWidget::currentRowChanged, this, &PredictPanel::jumpToMistake);
    // A new trace or new lanes make the round's questions another's: it ends.
    connect(session_, &Session::resultChanged, this, [this] {
        if (isActive()) {
            stop();
            heading_->setText(
                tr("The trace or its lanes changed, so the round ended. Start "
                   "again to predict the new decisions."));
        }
    });

    // Keys work anywhere in the window while a round runs, and are free for other uses otherwise.
    QWidget* window = parent != nullptr ? parent->window() : this;
    const auto key = [this, window](const QKeySequence& sequence, auto&& action) {
        auto* shortcut = new QShortcut(sequence, window);
        shortcut->setEnabled(false);
        connect(shortcut, &QShortcut::activated, this, action);
        shortcuts_.push_back(shortcut);
    };
    for (int slot = 0; slot < kMaxKeyedLanes; ++slot)
        key(QKeySequence(Qt::Key_1 + slot), [this, slot] { toggleLane(slot); });
    key(QKeySequence(Qt::Key_Return), [this] { revealOrNext(); });
    key(QKeySequence(Qt::Key_Enter), [this] { revealOrNext(); });
    key(QKeySequence(Qt::Key_N), [this] { skip(); });
    showRound();
}

PredictPanel::~PredictPanel() {
    // The shortcuts belong to the window, which may outlive the panel.
    for (const QPointer<QShortcut>& shortcut : shortcuts_)
        delete shortcut.data();
}

void PredictPanel::start() {
    const auto result = session_->result();
    std::vector<std::size_t> lanes;
    for (std::size_t lane = 0; lane < result->lanes.size(); ++lane) {
        if (!result->lanes[lane].hidden)
            lanes.push_back(lane);
    }
    round_ = std::make_unique<PredictRound>(result, lanes);
    clock_->pause();
    for (const QPointer<QShortcut>& shortcut : shortcuts_) {
        if (shortcut)
            shortcut->setEnabled(true);
    }
    rebuildRows();
    mistakes_->clear();
    moveClock();
    showRound();
    Q_EMIT activeChanged(true);
}

void PredictPanel::stop() {
    if (!round_)
        return;
    round_.reset();
    for (const QPointer<QShortcut>& shortcut : shortcuts_) {
        if (shortcut)
            shortcut->setEnabled(false);
    }
    showRound();
    Q_EMIT activeChanged(false);
}

void PredictPanel::rebuildRows() {
    auto* grid = static_cast<QGridLayout*>(rows_widget_->layout());
    while (QLayoutItem* item = grid->takeAt(0)) {
        delete item->widget();
        delete item;
    }
    rows_.clear();
    const SimulationResult& result = round_->result();
    for (std::size_t slot = 0; slot < round_->lanes().size(); ++slot) {
        const AlgorithmRun& run = result.runs[round_->lanes()[slot]];
        auto row = std::make_unique<Row>();
        const QString digit =
            slot < kMaxKeyedLanes ? QStringLiteral("%1  ").arg(slot + 1) : QStringLiteral("   ");
        row->name = new QLabel(digit + laneName(run.id, run.label), rows_widget_);
        row->accept = new QPushButton(tr("Accept"), rows_widget_);
        row->reject = new QPushButton(tr("Reject"), rows_widget_);
        row->answers = new QButtonGroup(rows_widget_);
        for (QPushButton* button : {row->accept, row->reject}) {
            button->setCheckable(true);
            button->setFocusPolicy(Qt::NoFocus);
            row->answers->addButton(button);
        }
        row->score = new QLabel(rows_widget_);
        row->why = new QLabel(rows_widget_);
        row->why->setWordWrap(true);
        const int r = static_cast<int>(slot) * 2;
        grid->addWidget(row->name, r, 0);
        grid->addWidget(row->accept, r, 1);
        grid->addWidget(row->reject, r, 2);
        if (round_->shapes(slot)) {
            row->release = new QLineEdit(rows_widget_);
            row->release->setPlaceholderText(tr("out at t ≈"));
            row->release->setToolTip(
                tr("Optional: roughly when the queue lets this request out, as a tick (12, 12.5 "
                   "or 25/2). Counts if within %1 tick of the truth.")
                    .arg(tickText(round_->releaseTolerance())));
            // Wide enough for its placeholder, which says what the field is for.
            row->release->setFixedWidth(
                row->release->fontMetrics().horizontalAdvance(QStringLiteral("out at t ≈ 0000")) +
                16);
            grid->addWidget(row->release, r, 3);
            connect(row->release, &QLineEdit::textEdited, this,
                    [this, slot](const QString& typed) { typeRelease(slot, typed); });
        }
        grid->addWidget(row->score, r, 4);
        grid->addWidget(row->why, r + 1, 0, 1, 5);
        connect(row->accept, &QPushButton::clicked, this, [this, slot] {
            round_->predict(slot, true);
            showRound();
        });
        connect(row->reject, &QPushButton::clicked, this, [this, slot] {
            round_->predict(slot, false);
            showRound();
        });
        rows_.push_back(std::move(row));
    }
    grid->setColumnStretch(0, 1);
}

void PredictPanel::typeRelease(std::size_t slot, const QString& typed) {
    if (!round_ || slot >= rows_.size())
        return;
    const std::optional<Rational> tick = readRelease(typed);
    if (tick)
        round_->predictRelease(slot, *tick);
    else
        round_->clearReleasePrediction(slot);
    // Text that is not a tick is marked, and counts as no guess.
    const bool unreadable = !tick && !typed.trimmed().isEmpty();
    rows_[slot]->release->setStyleSheet(unreadable ? QStringLiteral("color: #D55E00") : QString());
    showRound();
}

void PredictPanel::clearReleaseFields() {
    for (const auto& row : rows_) {
        if (row->release) {
            row->release->clear();
            row->release->setStyleSheet(QString());
        }
    }
}

void PredictPanel::toggleLane(int slot) {
    if (!round_ || slot < 0 || static_cast<std::size_t>(slot) >= rows_.size())
        return;
    round_->toggle(static_cast<std::size_t>(slot));
    showRound();
}

void PredictPanel::revealOrNext() {
    if (!round_)
        return;
    if (round_->revealed()) {
        round_->next();
        clearReleaseFields();
    } else {
        round_->reveal();
    }
    moveClock();
    showRound();
}

void PredictPanel::skip() {
    if (!round_)
        return;
    round_->next();
    clearReleaseFields();
    moveClock();
    showRound();
}

void PredictPanel::moveClock() {
    if (!round_ || round_->finished())
        return;
    // Before the reveal the request's decisions must not show: the clock stops short of it.
    const Tick tick = round_->result().trace->requests[round_->request()].tick;
    clock_->setNow(round_->revealed() ? tick : std::max<Tick>(0, tick - 1));
}

void PredictPanel::showRound() {
    const bool active = round_ != nullptr;
    start_stop_->setText(active ? tr("Stop") : tr("Start predicting"));
    reveal_->setVisible(active && !round_->finished());
    reveal_->setText(active && round_->revealed() ? tr("Next (Enter)") : tr("Reveal (Enter)"));
    skip_->setVisible(active && !round_->finished() && !round_->revealed());
    rows_widget_->setVisible(active && !round_->finished());
    score_->setVisible(active);
    if (!active) {
        heading_->setText(
            tr("<b>Predict mode.</b> The clock stops before each request; say "
               "what each lane will do with it and, for a leaky bucket, roughly when "
               "it lets the request out; then reveal the truth and its reason. Digits "
               "toggle lane 1, 2, …; Enter reveals and goes on; N skips."));
        summary_heading_->setVisible(mistakes_->count() > 0);
        return;
    }
    const PredictRound::Score total = round_->overall();
    const PredictRound::Score releases = round_->releaseScore();
    score_->setText(
        tr("Score %1 of %2 · streak %3 (best %4)")
            .arg(total.right)
            .arg(total.asked)
            .arg(round_->streak())
            .arg(round_->bestStreak()) +
        (releases.asked > 0
             ? tr(" · release times %1 of %2 close enough").arg(releases.right).arg(releases.asked)
             : QString()));
    if (round_->finished()) {
        showSummary();
        return;
    }
    summary_heading_->setVisible(false);
    mistakes_->setVisible(false);
    const SimulationResult& result = round_->result();
    const std::size_t index = round_->request();
    const Request& request = result.trace->requests[index];
    const QString key = result.trace->keys.size() > 1
                            ? tr(", key %1").arg(keyName(result.trace->key_name(request.key)))
                            : QString();
    heading_->setText(tr("<b>Request %1 of %2</b> at t = %3, cost %4%5. %6")
                          .arg(index + 1)
                          .arg(result.trace->requests.size())
                          .arg(request.tick)
                          .arg(request.cost)
                          .arg(key.toHtmlEscaped(), round_->revealed()
                                                        ? tr("Enter goes on to the next request.")
                                                        : tr("What will each lane do?")));
    for (std::size_t slot = 0; slot < rows_.size(); ++slot) {
        Row& row = *rows_[slot];
        const std::optional<bool> said = round_->prediction(slot);
        row.answers->setExclusive(false);
        row.accept->setChecked(said == true);
        row.reject->setChecked(said == false);
        row.answers->setExclusive(true);
        row.accept->setEnabled(!round_->revealed());
        row.reject->setEnabled(!round_->revealed());
        if (row.release) {
            row.release->setEnabled(!round_->revealed());
            // "Rejected" takes a guessed release back: the field says so by emptying.
            if (!round_->releasePrediction(slot) && readRelease(row.release->text()))
                row.release->clear();
        }
        const PredictRound::Score score = round_->score(slot);
        row.score->setText(QStringLiteral("%1/%2").arg(score.right).arg(score.asked));
        if (!round_->revealed()) {
            row.why->clear();
            row.why->setVisible(false);
            continue;
        }
        const std::size_t lane = round_->lanes()[slot];
        const bool accepted = result.runs[lane].accepted(index);
        const Explanation why = explain(result, lane, index);
        const QString mark = !said               ? tr("It %1.").arg(verdict(accepted))
                             : *said == accepted ? tr("✓ Right: %1.").arg(verdict(accepted))
                                                 : tr("✗ It %1.").arg(verdict(accepted));
        row.why->setText(QStringLiteral("<span style='color:%1'>%2</span> %3")
                             .arg(!said               ? QStringLiteral("gray")
                                  : *said == accepted ? QStringLiteral("#009E73")
                                                      : QStringLiteral("#D55E00"),
                                  mark.toHtmlEscaped(), text(why.check).toHtmlEscaped()) +
                         releaseText(round_->outcomes()[slot]));
        row.why->setVisible(true);
    }
}

void PredictPanel::showSummary() {
    heading_->setText(tr("<b>Every request has been asked about.</b>"));
    const auto& mistakes = round_->mistakes();
    summary_heading_->setVisible(true);
    mistakes_->setVisible(!mistakes.empty());
    summary_heading_->setText(mistakes.empty()
                                  ? tr("No wrong predictions.")
                                  : tr("Wrong predictions (click one to see its tick):"));
    const QSignalBlocker block(mistakes_);
    mistakes_->clear();
    const SimulationResult& result = round_->result();
    for (const PredictRound::Mistake& mistake : mistakes) {
        const AlgorithmRun& run = result.runs[mistake.lane];
        const Request& request = result.trace->requests[mistake.request];
        const QString said =
            mistake.release_said
                ? tr("you said out at t = %1, it was t = %2")
                      .arg(tickText(*mistake.release_said),
                           tickText(run.release(*result.trace, mistake.request)))
                : tr("you said %1, it %2")
                      .arg(verdict(mistake.predicted), verdict(!mistake.predicted));
        auto* item = new QListWidgetItem(tr("Request %1 at t = %2, %3: %4")
                                             .arg(mistake.request + 1)
                                             .arg(request.tick)
                                             .arg(laneName(run.id, run.label), said),
                                         mistakes_);
        item->setData(Qt::UserRole, static_cast<qlonglong>(request.tick));
    }
}

QString PredictPanel::releaseText(const PredictRound::Outcome& outcome) {
    if (!outcome.release)
        return {};
    if (!outcome.release_grade)
        return tr("<br>It leaves the queue at t = %1.").arg(tickText(*outcome.release));
    const bool close = outcome.release_grade->correct;
    return QStringLiteral("<br><span style='color:%1'>%2</span>")
        .arg(close ? QStringLiteral("#009E73") : QStringLiteral("#D55E00"),
             // The grade's reason names the true release itself.
             ((close ? tr("✓ Release: ") : tr("✗ Release: ")) + text(outcome.release_grade->reason))
                 .toHtmlEscaped());
}

QLineEdit* PredictPanel::releaseField(std::size_t slot) const {
    return slot < rows_.size() ? rows_[slot]->release : nullptr;
}

void PredictPanel::jumpToMistake(int row) {
    if (QListWidgetItem* item = mistakes_->item(row))
        clock_->setNow(item->data(Qt::UserRole).toLongLong());
}

}  // namespace ratelab::ui
