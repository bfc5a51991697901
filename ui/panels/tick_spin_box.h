#pragma once

#include <QAbstractSpinBox>
#include <QString>
#include <QtGlobal>
#include <functional>

namespace ratelab::ui {

/// A spin box for 64-bit whole numbers, such as a window of up to 10^12 ticks: QSpinBox holds an
/// int, so it could neither show a W above 2^31 - 1 nor be touched without changing it.
class TickSpinBox : public QAbstractSpinBox {
    Q_OBJECT

public:
    explicit TickSpinBox(QWidget* parent = nullptr);

    qint64 value() const { return value_; }
    qint64 minimum() const { return minimum_; }
    qint64 maximum() const { return maximum_; }
    void setRange(qint64 minimum, qint64 maximum);
    /// Text after the number, such as " keys".
    void setSuffix(const QString& suffix);
    /// Writes the value as "1 tick", "10 ticks" (ticksText()).
    void showAsTicks();

    void stepBy(int steps) override;
    QValidator::State validate(QString& input, int& pos) const override;
    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

public Q_SLOTS:
    /// Clamps to the range; emits valueChanged() when the value changes.
    void setValue(qint64 value);

Q_SIGNALS:
    void valueChanged(qint64 value);

protected:
    StepEnabled stepEnabled() const override;

private:
    QString textFromValue(qint64 value) const { return QString::number(value) + suffix_(value); }
    /// The digits of `text`, without a suffix that any value could have.
    QString digitsOf(const QString& text) const;
    /// The number in `text` (with or without the suffix), if it is one in range.
    bool parse(const QString& text, qint64& value) const;
    void setTextAfter(std::function<QString(qint64)> suffix);
    void onTextEdited(const QString& text);
    /// Takes the number in `text` as the value when it is one in range (valueChanged()).
    void take(const QString& text);

    qint64 value_ = 0;
    qint64 minimum_ = 0;
    qint64 maximum_ = 99;
    std::function<QString(qint64)> suffix_ = [](qint64) { return QString(); };
};

}  // namespace ratelab::ui
