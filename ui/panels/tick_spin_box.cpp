#include "panels/tick_spin_box.h"

#include "charts/tick_text.h"

#include <QFontMetrics>
#include <QLineEdit>
#include <QStyle>
#include <QStyleOptionSpinBox>
#include <algorithm>

namespace ratelab::ui {

TickSpinBox::TickSpinBox(QWidget* parent) : QAbstractSpinBox(parent) {
    lineEdit()->setText(textFromValue(value_));
    connect(lineEdit(), &QLineEdit::textEdited, this, &TickSpinBox::onTextEdited);
    // Without keyboard tracking the number typed is taken when typing ends; leaving the field
    // with a number out of range or half typed shows the value again.
    connect(this, &QAbstractSpinBox::editingFinished, this, [this] {
        if (!keyboardTracking())
            take(lineEdit()->text());
        lineEdit()->setText(textFromValue(value_));
    });
}

void TickSpinBox::setRange(qint64 minimum, qint64 maximum) {
    minimum_ = minimum;
    maximum_ = std::max(minimum, maximum);
    setValue(value_);
    updateGeometry();
}

void TickSpinBox::setSuffix(const QString& suffix) {
    setTextAfter([suffix](qint64) { return suffix; });
}

void TickSpinBox::showAsTicks() {
    setTextAfter([](qint64 value) { return ticksSuffix(value); });
}

void TickSpinBox::setTextAfter(std::function<QString(qint64)> suffix) {
    suffix_ = std::move(suffix);
    lineEdit()->setText(textFromValue(value_));
    updateGeometry();
}

QString TickSpinBox::digitsOf(const QString& text) const {
    // Typing over the number of "10 ticks" leaves "1 ticks": the suffix of one value or of
    // many is taken off whatever the number now is.
    QString digits = text;
    for (const qint64 example : {qint64(2), qint64(1)}) {
        const QString suffix = suffix_(example);
        if (!suffix.isEmpty() && digits.endsWith(suffix)) {
            digits.chop(suffix.size());
            break;
        }
    }
    return digits.trimmed();
}

void TickSpinBox::setValue(qint64 value) {
    value = std::clamp(value, minimum_, maximum_);
    // Text typed for this very value stays as it is ("1 ticks" while typing 15 over 10), so
    // that the next keystroke goes where the cursor is; leaving the field writes it out again.
    qint64 shown = 0;
    if (!parse(lineEdit()->text(), shown) || shown != value)
        lineEdit()->setText(textFromValue(value));
    if (value == value_)
        return;
    value_ = value;
    Q_EMIT valueChanged(value_);
}

void TickSpinBox::stepBy(int steps) {
    // Saturating: a step past either end stops there.
    const qint64 room = steps > 0 ? maximum_ - value_ : value_ - minimum_;
    const qint64 by = std::min<qint64>(room, std::abs(static_cast<qint64>(steps)));
    setValue(steps > 0 ? value_ + by : value_ - by);
    selectAll();
}

QAbstractSpinBox::StepEnabled TickSpinBox::stepEnabled() const {
    StepEnabled enabled = StepNone;
    if (value_ < maximum_)
        enabled |= StepUpEnabled;
    if (value_ > minimum_)
        enabled |= StepDownEnabled;
    return enabled;
}

bool TickSpinBox::parse(const QString& text, qint64& value) const {
    const QString digits = digitsOf(text);
    bool ok = false;
    value = digits.toLongLong(&ok);
    return ok && !digits.startsWith(QLatin1Char('+')) && value >= minimum_ && value <= maximum_;
}

QValidator::State TickSpinBox::validate(QString& input, int& pos) const {
    (void)pos;
    const QString digits = digitsOf(input);
    if (digits.isEmpty())
        return QValidator::Intermediate;
    for (const QChar c : digits) {
        if (!c.isDigit())
            return QValidator::Invalid;
    }
    bool ok = false;
    const qint64 value = digits.toLongLong(&ok);
    if (!ok || value > maximum_)
        return QValidator::Invalid;  // more digits than the range allows
    return value < minimum_ ? QValidator::Intermediate : QValidator::Acceptable;
}

void TickSpinBox::onTextEdited(const QString& text) {
    // As QSpinBox does: with keyboard tracking (the default) each acceptable keystroke is a new
    // value, else only the number there when typing ends.
    if (keyboardTracking())
        take(text);
}

void TickSpinBox::take(const QString& text) {
    qint64 value = 0;
    if (parse(text, value) && value != value_) {
        value_ = value;
        Q_EMIT valueChanged(value_);
    }
}

QSize TickSpinBox::sizeHint() const {
    ensurePolished();
    const QFontMetrics metrics(font());
    const int text = std::max(metrics.horizontalAdvance(textFromValue(maximum_)),
                              metrics.horizontalAdvance(textFromValue(minimum_))) +
                     4;
    QStyleOptionSpinBox option;
    initStyleOption(&option);
    const QSize content(text, lineEdit()->sizeHint().height());
    return style()->sizeFromContents(QStyle::CT_SpinBox, &option, content, this);
}

QSize TickSpinBox::minimumSizeHint() const {
    return sizeHint();
}

}  // namespace ratelab::ui
