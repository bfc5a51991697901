#include "panels/drill_panel.h"

#include <QCheckBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QKeyEvent>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QRandomGenerator>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>
#include <algorithm>
#include <limits>

#include "session/playback_clock.h"

namespace ratelab::ui {

namespace {

constexpr std::size_t kLanesPerRow = 3;

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

/// The kind as the learner reads it; the CLI's id follows in brackets so the two can be matched.
QString kindText(QuestionKind kind) {
    switch (kind) {
        case QuestionKind::rejected_indices:
            return DrillPanel::tr("Which requests are rejected?");
        case QuestionKind::retry_after:
            return DrillPanel::tr("What is the retry-after?");
        case QuestionKind::worst_burst:
            return DrillPanel::tr("What is the worst burst?");
        case QuestionKind::which_accepts:
            return DrillPanel::tr("Which lanes let it through?");
    }
    return {};
}

/// Where the clock stops while a question is open: short of the request asked about, or of the
/// first request, so that the timeline does not give the answer away.
Tick askingTick(const Question& q) {
    if (q.trace.requests.empty())
        return 0;
    const std::size_t index = q.request.value_or(0);
    return std::max<Tick>(0, q.trace.requests.at(index).tick - 1);
}

}  // namespace

DrillPanel::DrillPanel(PlaybackClock* clock, OpenDocument open, QWidget* parent)
    : QWidget(parent),
      clock_(clock),
      open_(std::move(open)),
      seed_(new QSpinBox(this)),
      count_(new QSpinBox(this)),
      start_(new QPushButton(tr("Start"), this)),
      new_drill_(new QPushButton(tr("New drill"), this)),
      answer_box_(new QWidget(this)),
      heading_(new QLabel(this)),
      question_(new QLabel(this)),
      prompt_(new QLabel(this)),
      choices_box_(new QWidget(this)),
      answer_(new QLineEdit(this)),
      check_(new QPushButton(tr("Check (Enter)"), this)),
      next_(new QPushButton(tr("Next ▶"), this)),
      verdict_(new QLabel(this)),
      score_(new QLabel(this)) {
    seed_->setRange(0, std::numeric_limits<int>::max());
    seed_->setValue(1);
    seed_->setToolTip(
        tr("The same seed asks the same questions, here and in "
           "ratelab-cli quiz --seed N"));
    count_->setRange(1, 100);
    count_->setValue(5);
    count_->setToolTip(tr("How many questions the drill asks"));
    start_->setToolTip(tr("Ask the questions of this seed"));
    new_drill_->setToolTip(tr("Ask the questions of a fresh seed"));
    for (QLabel* label : {heading_, question_, prompt_, verdict_, score_})
        label->setWordWrap(true);
    question_->setTextFormat(Qt::PlainText);
    question_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // Three lanes to a row: six boxes in a column would push Check out of the short dock.
    auto* choices = new QGridLayout(choices_box_);
    choices->setContentsMargins(0, 0, 0, 0);
    choices->setVerticalSpacing(2);

    auto* seed_row = new QHBoxLayout;
    auto* seed_label = new QLabel(tr("&Seed"), this);
    seed_label->setBuddy(seed_);
    auto* count_label = new QLabel(tr("&Questions"), this);
    count_label->setBuddy(count_);
    seed_row->addWidget(seed_label);
    seed_row->addWidget(seed_);
    seed_row->addWidget(count_label);
    seed_row->addWidget(count_);
    seed_row->addWidget(start_);
    seed_row->addWidget(new_drill_);
    seed_row->addStretch(1);
    auto* answer_row = new QHBoxLayout;
    answer_row->addWidget(answer_, 1);
    answer_row->addWidget(check_);
    answer_row->addWidget(next_);
    answer_row->addStretch();  // keeps the buttons their size while lanes replace the field
    // Wide and short, as the bottom dock is: the question on the left, the answer on the right.
    auto* asked = new QVBoxLayout;
    asked->addLayout(seed_row);
    asked->addWidget(heading_);
    asked->addWidget(question_);
    asked->addStretch(1);
    auto* answering = new QVBoxLayout(answer_box_);
    answering->setContentsMargins(0, 0, 0, 0);
    answering->addWidget(prompt_);
    answering->addWidget(choices_box_);
    answering->addLayout(answer_row);
    answering->addWidget(verdict_);
    answering->addWidget(score_);
    answering->addStretch(1);
    // In a scroll area: a long question or six lanes to tick must not make the bottom dock
    // area, which the tab shares with the table, taller than the timeline can spare.
    auto* content = new QWidget;
    auto* columns = new QHBoxLayout(content);
    columns->setContentsMargins(6, 6, 6, 6);
    columns->addLayout(asked, 3);
    columns->addWidget(answer_box_, 2);
    auto* scroll = new QScrollArea(this);
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(content);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);

    connect(start_, &QPushButton::clicked, this, &DrillPanel::start);
    connect(new_drill_, &QPushButton::clicked, this, &DrillPanel::newDrill);
    connect(check_, &QPushButton::clicked, this, &DrillPanel::check);
    connect(next_, &QPushButton::clicked, this, &DrillPanel::next);

    heading_->setText(
        tr("<b>Drills</b> ask interview questions on small random traces: which requests a "
           "lane rejects, a rejection's retry-after, the worst burst, which lanes let a request "
           "through. Each question opens its trace (you are asked to save your own first); "
           "RateLab grades your answer with its reason."));
    question_->setText(tr("Choose a seed and press Start, or press New drill."));
    answer_box_->setVisible(false);  // until a drill starts the introduction has the width
}

bool DrillPanel::start() {
    const auto seed = static_cast<std::uint64_t>(seed_->value());
    std::vector<Question> drawn =
        make_quiz(QuizOptions{seed, static_cast<std::size_t>(count_->value())});
    std::swap(questions_, drawn);
    const std::optional<std::size_t> before = current_;
    const std::uint64_t seed_before = drawn_seed_;
    drawn_seed_ = seed;
    current_.reset();
    if (!showQuestion(0)) {  // the user kept their document: the drill stays as it was
        std::swap(questions_, drawn);
        current_ = before;
        drawn_seed_ = seed_before;
        return false;
    }
    results_.assign(questions_.size(), std::nullopt);
    answer_box_->setVisible(true);
    updateScore();
    return true;
}

bool DrillPanel::newDrill() {
    // As the CLI draws its seeds: small enough to read out and type.
    seed_->setValue(static_cast<int>(QRandomGenerator::global()->bounded(1'000'000)));
    return start();
}

bool DrillPanel::showQuestion(std::size_t index) {
    if (index >= questions_.size())
        return false;
    const Question& q = questions_[index];
    SessionDocument document;
    document.name = tr("Drill %1, question %2").arg(drawn_seed_).arg(index + 1).toStdString();
    document.description = q.text;
    document.params.base = q.limits;
    document.params.lanes = q.lanes;
    document.trace = std::make_shared<const Trace>(q.trace);
    if (!open_(std::move(document)))
        return false;
    current_ = index;
    clock_->pause();
    clock_->setNow(askingTick(q));
    heading_->setText(
        tr("<b>Question %1 of %2</b> · %3 <span style='color:gray'>[%4]</span>")
            .arg(index + 1)
            .arg(questions_.size())
            .arg(kindText(q.kind).toHtmlEscaped(), text(std::string(kind_id(q.kind)))));
    question_->setText(text(q.text));
    showAnswerFields();
    updateScore();
    return true;
}

void DrillPanel::showAnswerFields() {
    qDeleteAll(lane_choices_);
    lane_choices_.clear();
    verdict_->clear();
    verdict_->setVisible(true);
    answer_->clear();
    answer_->setReadOnly(false);
    check_->setVisible(true);
    check_->setEnabled(true);
    next_->setVisible(true);
    next_->setText(*current_ + 1 < questions_.size() ? tr("Next ▶") : tr("Finish"));
    prompt_->setVisible(true);
    const Question& q = questions_[*current_];
    const bool lanes = q.kind == QuestionKind::which_accepts;
    choices_box_->setVisible(lanes);
    answer_->setVisible(!lanes);
    if (lanes) {
        prompt_->setText(tr("Tick the lanes that accept request #%1 (digits 0 to %2 tick them), "
                            "then Enter.")
                             .arg(q.request.value_or(0))
                             .arg(q.lanes.size() - 1));
        for (std::size_t k = 0; k < q.lanes.size(); ++k) {
            auto* box = new QCheckBox(
                QStringLiteral("%1  %2").arg(k).arg(text(lane_label(q.lanes[k]))), choices_box_);
            static_cast<QGridLayout*>(choices_box_->layout())
                ->addWidget(box, static_cast<int>(k / kLanesPerRow),
                            static_cast<int>(k % kLanesPerRow));
            lane_choices_.push_back(box);
        }
        setFocus();
        return;
    }
    switch (q.kind) {
        case QuestionKind::rejected_indices:
            prompt_->setText(tr("Type the indexes of the rejected requests, then Enter."));
            answer_->setPlaceholderText(tr("such as 2 5 7, or none"));
            break;
        case QuestionKind::retry_after:
            prompt_->setText(tr("Type the retry-after in ticks, then Enter."));
            answer_->setPlaceholderText(tr("such as 3 or 5/2, or never"));
            break;
        default:
            prompt_->setText(tr("Type the largest accepted cost in any W ticks, then Enter."));
            answer_->setPlaceholderText(tr("such as 4"));
            break;
    }
    answer_->setFocus();
}

void DrillPanel::check() {
    if (!current_ || results_.empty() || !check_->isEnabled())
        return;
    const Question& q = questions_[*current_];
    std::optional<Answer> given;
    if (q.kind == QuestionKind::which_accepts) {
        std::vector<std::int64_t> chosen;
        for (std::size_t i = 0; i < lane_choices_.size(); ++i) {
            if (lane_choices_[i]->isChecked())
                chosen.push_back(static_cast<std::int64_t>(i));
        }
        given = Answer::of_indices(std::move(chosen));
    } else {
        const std::string typed = answer_->text().trimmed().toStdString();
        given = parse_answer(typed, q.answer.form == Answer::Form::indices ? Answer::Form::indices
                                                                           : Answer::Form::number);
        if (!given && q.kind == QuestionKind::retry_after)
            given = parse_answer(typed, Answer::Form::never);
    }
    if (!given) {
        verdict_->setText(tr("Write the answer as the field suggests."));
        return;
    }
    const Grade grade = ratelab::grade(q.answer, *given, q.explanation);
    results_[*current_] = grade.correct;
    // The reason opens with its verdict ("Right: 3." or "Wrong: the answer is ..."): coloured.
    const QString reason = text(grade.reason);
    const qsizetype verdict_end = std::max<qsizetype>(0, reason.indexOf(QLatin1Char(':')) + 1);
    verdict_->setText(
        QStringLiteral("<span style='color:%1'><b>%2</b></span>%3")
            .arg(grade.correct ? QStringLiteral("#009E73") : QStringLiteral("#D55E00"),
                 reason.left(verdict_end).toHtmlEscaped(),
                 reason.mid(verdict_end).toHtmlEscaped()));
    check_->setEnabled(false);
    answer_->setReadOnly(true);
    for (QCheckBox* box : lane_choices_)
        box->setEnabled(false);
    clock_->jumpToEnd();  // the truth may show now
    next_->setFocus();
    updateScore();
}

void DrillPanel::next() {
    if (!current_)
        return;
    if (*current_ + 1 < questions_.size())
        showQuestion(*current_ + 1);
    else
        showSummary();
}

void DrillPanel::showSummary() {
    QStringList wrong;
    QStringList skipped;
    for (std::size_t i = 0; i < results_.size(); ++i) {
        if (results_[i] == std::optional<bool>(false))
            wrong << QString::number(i + 1);
        else if (!results_[i])
            skipped << QString::number(i + 1);
    }
    heading_->setText(tr("<b>Drill done:</b> %1 of %2 right.").arg(right()).arg(questions_.size()));
    QStringList lines;
    if (!wrong.isEmpty())
        lines << tr("Wrong: question %1.").arg(wrong.join(QStringLiteral(", ")));
    if (!skipped.isEmpty())
        lines << tr("Skipped: question %1.").arg(skipped.join(QStringLiteral(", ")));
    if (lines.isEmpty())
        lines << tr("Every question right.");
    lines << tr("Start asks them again; ratelab-cli quiz --seed %1 --count %2 prints them with "
                "their answers.")
                 .arg(drawn_seed_)
                 .arg(questions_.size());
    question_->setText(lines.join(QLatin1Char('\n')));
    clock_->jumpToEnd();  // the last question's answer, whether given or skipped
    for (QWidget* widget :
         std::initializer_list<QWidget*>{prompt_, choices_box_, answer_, check_, next_, verdict_})
        widget->setVisible(false);
    current_.reset();
    start_->setFocus();
}

int DrillPanel::right() const {
    return static_cast<int>(std::count(results_.begin(), results_.end(), std::optional(true)));
}

int DrillPanel::answered() const {
    return static_cast<int>(
        std::count_if(results_.begin(), results_.end(),
                      [](const std::optional<bool>& r) { return r.has_value(); }));
}

void DrillPanel::updateScore() {
    score_->setVisible(!results_.empty());
    score_->setText(tr("Score: %1 right of %2 answered").arg(right()).arg(answered()));
}

void DrillPanel::keyPressEvent(QKeyEvent* event) {
    // Keys the focused field leaves alone reach the panel: Enter in the seed starts, elsewhere it
    // checks, then goes on; digits tick lanes.
    const int key = event->key();
    if (key == Qt::Key_Return || key == Qt::Key_Enter) {
        if (seed_->hasFocus() || count_->hasFocus())
            start();
        else if (current_ && check_->isEnabled())
            check();
        else if (current_)
            next();
        return;
    }
    if (key >= Qt::Key_0 && key <= Qt::Key_9 && event->modifiers() == Qt::NoModifier) {
        const auto slot = static_cast<std::size_t>(key - Qt::Key_0);
        if (slot < lane_choices_.size() && lane_choices_[slot]->isEnabled()) {
            lane_choices_[slot]->toggle();
            return;
        }
    }
    QWidget::keyPressEvent(event);
}

}  // namespace ratelab::ui
