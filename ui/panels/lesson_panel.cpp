#include "panels/lesson_panel.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QSettings>
#include <QTextBrowser>
#include <QVBoxLayout>
#include <algorithm>

#include "charts/algorithm_names.h"
#include "ratelab/io/lesson_file.h"
#include "session/playback_clock.h"
#include "session/session.h"
#include "window/scenario_catalog.h"

namespace ratelab::ui {

namespace {

QString text(const std::string& s) {
    return QString::fromStdString(s);
}

/// What a highlight points at, in words.
QString highlightText(const Highlight& highlight, const SimulationResult& result) {
    QString what;
    switch (highlight.kind) {
        case Highlight::Kind::lane: {
            const AlgorithmRun& run = result.runs.at(highlight.lane);
            what = LessonPanel::tr("the %1 lane").arg(laneName(run.id, run.label));
            break;
        }
        case Highlight::Kind::span:
            what = LessonPanel::tr("ticks %1 to %2").arg(highlight.from).arg(highlight.to);
            break;
        case Highlight::Kind::request:
            what = LessonPanel::tr("request %1 (t = %2)")
                       .arg(highlight.request)
                       .arg(result.trace->requests.at(highlight.request).tick);
            break;
    }
    return highlight.note.empty() ? what : QStringLiteral("%1: %2").arg(what, text(highlight.note));
}

}  // namespace

LessonPanel::LessonPanel(Session* session, PlaybackClock* clock, OpenDocument open, QWidget* parent)
    : QWidget(parent),
      session_(session),
      clock_(clock),
      open_(std::move(open)),
      chooser_(new QComboBox(this)),
      progress_(new QLabel(this)),
      narration_(new QTextBrowser(this)),
      prompt_(new QLabel(this)),
      choices_box_(new QWidget(this)),
      answer_(new QLineEdit(this)),
      check_(new QPushButton(tr("Check"), this)),
      hint_(new QPushButton(tr("Hint"), this)),
      verdict_(new QLabel(this)),
      previous_(new QPushButton(tr("◀ Previous"), this)),
      next_(new QPushButton(tr("Next ▶"), this)),
      status_(new QLabel(this)) {
    prompt_->setWordWrap(true);
    verdict_->setWordWrap(true);
    verdict_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    status_->setWordWrap(true);
    narration_->setOpenExternalLinks(false);
    new QVBoxLayout(choices_box_);
    choices_box_->layout()->setContentsMargins(0, 0, 0, 0);
    auto* answer_row = new QHBoxLayout;
    answer_row->addWidget(answer_, 1);
    answer_row->addWidget(check_);
    answer_row->addWidget(hint_);
    auto* steps_row = new QHBoxLayout;
    steps_row->addWidget(previous_);
    steps_row->addWidget(progress_, 1, Qt::AlignCenter);
    steps_row->addWidget(next_);
    // Wide and short, as the bottom dock is: the story on the left, the question on the right.
    auto* story = new QVBoxLayout;
    story->addWidget(chooser_);
    story->addWidget(narration_, 1);
    story->addLayout(steps_row);
    auto* asking = new QVBoxLayout;
    asking->addWidget(prompt_);
    asking->addWidget(choices_box_);
    asking->addLayout(answer_row);
    asking->addWidget(verdict_);
    asking->addWidget(status_);
    asking->addStretch(1);
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(6, 6, 6, 6);
    layout->addLayout(story, 3);
    layout->addLayout(asking, 2);

    connect(chooser_, &QComboBox::activated, this, &LessonPanel::chooseLesson);
    connect(check_, &QPushButton::clicked, this, &LessonPanel::check);
    connect(answer_, &QLineEdit::returnPressed, this, &LessonPanel::check);
    connect(hint_, &QPushButton::clicked, this, &LessonPanel::hint);
    connect(previous_, &QPushButton::clicked, this, [this] {
        if (step_ && *step_ > 0)
            showStep(*step_ - 1);
    });
    connect(next_, &QPushButton::clicked, this, [this] {
        if (step_ && lesson_ && *step_ + 1 < lesson_->steps.size())
            showStep(*step_ + 1);
    });
    connect(session_, &Session::resultChanged, this, &LessonPanel::watchTryIt);
    // Another document (Open, New, a scenario) ends the step: its highlights go with it.
    connect(session_, &Session::documentReset, this, [this] {
        if (!opening_ && step_)
            Q_EMIT highlightsChanged({}, nullptr);
    });
    loadFolder(bundledLessonsDir());
}

void LessonPanel::loadFolder(const QString& folder) {
    lessons_.clear();
    QStringList broken;
    const QDir dir(folder);
    for (const QFileInfo& file : folder.isEmpty() ? QFileInfoList()
                                                  : dir.entryInfoList({QStringLiteral("*.json")},
                                                                      QDir::Files, QDir::Name)) {
        io::LessonLoad load = io::load_lesson(file.filePath().toStdString());
        if (load.ok())
            lessons_.push_back(std::move(*load.lesson));
        else
            broken << file.fileName();
    }
    const QSignalBlocker block(chooser_);
    chooser_->clear();
    chooser_->addItem(tr("Choose a lesson…"));
    for (const Lesson& lesson : lessons_)
        chooser_->addItem(text(lesson.title), text(lesson.summary));
    for (int i = 1; i < chooser_->count(); ++i)
        chooser_->setItemData(i, chooser_->itemData(i), Qt::ToolTipRole);
    status_->setText(
        broken.isEmpty()
            ? QString()
            : tr("Not offered, they do not load: %1").arg(broken.join(QStringLiteral(", "))));
    if (!lesson_) {
        narration_->setHtml(
            lessons_.empty()
                ? tr("<p>No lessons were found.</p>")
                : tr("<p><b>Lessons</b> walk through one idea at a time on a small trace. "
                     "Each step opens its trace as the document (you are asked to save your "
                     "own first), narrates, and may ask a question that RateLab answers "
                     "itself when you check yours.</p><p>Choose a lesson above.</p>"));
        for (QWidget* widget : std::initializer_list<QWidget*>{prompt_, choices_box_, answer_,
                                                               check_, hint_, previous_, next_})
            widget->setVisible(false);
    }
}

void LessonPanel::chooseLesson(int index) {
    if (index >= 1 && static_cast<std::size_t>(index) <= lessons_.size())
        showLesson(lessons_[static_cast<std::size_t>(index - 1)]);
}

QString LessonPanel::progressKey() const {
    return QStringLiteral("lessons/%1/done").arg(text(lesson_ ? lesson_->id : std::string()));
}

void LessonPanel::showLesson(Lesson lesson) {
    const std::optional<Lesson> before = lesson_;
    lesson_ = std::move(lesson);
    // Start at the first step not finished yet, or from the top of a finished lesson.
    const int done = QSettings().value(progressKey(), 0).toInt();
    const std::size_t first =
        static_cast<std::size_t>(done) < lesson_->steps.size() ? static_cast<std::size_t>(done) : 0;
    step_.reset();
    if (!showStep(first))
        lesson_ = before;
}

bool LessonPanel::showStep(std::size_t index) {
    if (!lesson_ || index >= lesson_->steps.size())
        return false;
    const LessonStep& step = lesson_->steps[index];
    SessionDocument document;
    document.name = lesson_->title + " — " + step.title;
    document.description = step.narration;
    document.tick_ms = step.tick_ms;
    document.params = step.params;
    document.trace = step.trace;
    opening_ = true;
    const bool opened = open_(std::move(document));
    opening_ = false;
    if (!opened)
        return false;
    step_ = index;
    hints_shown_ = 0;
    Q_EMIT highlightsChanged(step.highlights, session_->result()->trace);
    if (step.clock)
        clock_->setNow(*step.clock);
    // A prediction is asked before the decision shows: the clock stops short of the request.
    if (step.question && step.question->kind == LessonQuestion::Kind::predict) {
        const Tick tick = step.trace->requests.at(step.question->request).tick;
        clock_->setNow(std::min(clock_->now(), std::max<Tick>(0, tick - 1)));
    }
    progress_->setText(tr("Step %1 of %2").arg(index + 1).arg(lesson_->steps.size()));
    previous_->setVisible(true);
    next_->setVisible(true);
    previous_->setEnabled(index > 0);
    next_->setEnabled(index + 1 < lesson_->steps.size());
    QString html = QStringLiteral("<h3>%1</h3><p>%2</p>")
                       .arg(text(step.title).toHtmlEscaped(),
                            text(step.narration)
                                .toHtmlEscaped()
                                .replace(QStringLiteral("\n\n"), QStringLiteral("</p><p>")));
    if (!step.highlights.empty()) {
        const auto result = session_->result();
        html += tr("<p><b>Look at</b></p><ul>");
        for (const Highlight& highlight : step.highlights)
            html += QStringLiteral("<li>%1</li>")
                        .arg(highlightText(highlight, *result).toHtmlEscaped());
        html += QStringLiteral("</ul>");
    }
    if (step.try_it)
        html += tr("<p><b>Try it:</b> %1</p>").arg(text(step.try_it->goal).toHtmlEscaped());
    narration_->setHtml(html);
    showQuestion();
    if (!step.question && !step.try_it)
        markDone();
    watchTryIt();
    return true;
}

void LessonPanel::showQuestion() {
    qDeleteAll(lane_choices_);
    lane_choices_.clear();
    verdict_->clear();
    answer_->clear();
    const LessonStep& step = lesson_->steps[*step_];
    const bool asked = step.question.has_value();
    prompt_->setVisible(asked);
    check_->setVisible(asked);
    hint_->setVisible(asked && !step.question->hints.empty());
    if (!asked) {
        choices_box_->setVisible(false);
        answer_->setVisible(false);
        return;
    }
    const LessonQuestion& question = *step.question;
    prompt_->setText(QStringLiteral("<b>%1</b>").arg(text(question.prompt).toHtmlEscaped()));
    const bool lanes = question.kind == LessonQuestion::Kind::predict ||
                       question.kind == LessonQuestion::Kind::choice;
    choices_box_->setVisible(lanes);
    answer_->setVisible(!lanes);
    if (lanes) {
        const auto result = session_->result();
        for (const AlgorithmRun& run : result->runs) {
            auto* box = new QCheckBox(laneName(run.id, run.label), choices_box_);
            choices_box_->layout()->addWidget(box);
            lane_choices_.push_back(box);
        }
    } else {
        answer_->setPlaceholderText(question.kind == LessonQuestion::Kind::requests
                                        ? tr("request indexes, such as 2 5 7 (none: none)")
                                        : tr("a number, such as 3 or 5/2 (or never)"));
    }
}

void LessonPanel::check() {
    if (!lesson_ || !step_ || !lesson_->steps[*step_].question)
        return;
    const LessonStep& step = lesson_->steps[*step_];
    const LessonQuestion& question = *step.question;
    std::optional<Answer> given;
    if (question.kind == LessonQuestion::Kind::predict ||
        question.kind == LessonQuestion::Kind::choice) {
        std::vector<std::int64_t> chosen;
        for (std::size_t i = 0; i < lane_choices_.size(); ++i) {
            if (lane_choices_[i]->isChecked())
                chosen.push_back(static_cast<std::int64_t>(i));
        }
        given = Answer::of_indices(chosen);
    } else {
        const std::string typed = answer_->text().trimmed().toStdString();
        given = question.kind == LessonQuestion::Kind::requests
                    ? parse_answer(typed, Answer::Form::indices)
                    : parse_answer(typed, Answer::Form::number);
        if (!given && question.kind == LessonQuestion::Kind::number)
            given = parse_answer(typed, Answer::Form::never);
    }
    if (!given) {
        verdict_->setText(tr("Write the answer as the field suggests."));
        return;
    }
    const Grade grade = grade_step(step, *given);
    // The reason ends with the step's reveal narration, a line of its own: one paragraph each.
    QStringList paragraphs = text(grade.reason).toHtmlEscaped().split(QLatin1Char('\n'));
    paragraphs.front().prepend(
        QStringLiteral("<span style='color:%1'><b>%2</b></span> ")
            .arg(grade.correct ? QStringLiteral("#009E73") : QStringLiteral("#D55E00"),
                 grade.correct ? tr("Right.") : tr("Not quite.")));
    verdict_->setText(QStringLiteral("<p>%1</p>").arg(paragraphs.join(QStringLiteral("</p><p>"))));
    if (question.kind == LessonQuestion::Kind::predict)  // now the decision may show
        clock_->setNow(std::max(clock_->now(), step.trace->requests.at(question.request).tick));
    if (grade.correct)
        markDone();
}

void LessonPanel::hint() {
    if (!lesson_ || !step_ || !lesson_->steps[*step_].question)
        return;
    const auto& hints = lesson_->steps[*step_].question->hints;
    if (hints.empty())
        return;
    const std::size_t shown = std::min(hints_shown_, hints.size() - 1);
    verdict_->setText(tr("Hint %1 of %2: %3")
                          .arg(shown + 1)
                          .arg(hints.size())
                          .arg(text(hints[shown]).toHtmlEscaped()));
    hints_shown_ = shown + 1;
}

void LessonPanel::watchTryIt() {
    if (!lesson_ || !step_ || opening_)
        return;
    const LessonStep& step = lesson_->steps[*step_];
    if (!step.try_it)
        return;
    if (try_it_met(step, session_->trace())) {
        status_->setText(QStringLiteral("<span style='color:#009E73'><b>%1</b></span>")
                             .arg(tr("Goal met. Well done.")));
        markDone();
    } else {
        status_->setText(tr("Edit the trace until the goal is met."));
    }
}

void LessonPanel::markDone() {
    QSettings settings;
    const int done = settings.value(progressKey(), 0).toInt();
    settings.setValue(progressKey(), std::max(done, static_cast<int>(*step_) + 1));
}

}  // namespace ratelab::ui
