#include "charts/tick_text.h"

#include <QCoreApplication>

namespace ratelab::ui {

QString ticksText(const QString& number) {
    return number == QLatin1String("1")
               ? QCoreApplication::translate("Ticks", "%1 tick").arg(number)
               : QCoreApplication::translate("Ticks", "%1 ticks").arg(number);
}

QString ticksText(qint64 ticks) {
    return ticksText(QString::number(ticks));
}

QString ticksSuffix(qint64 ticks) {
    return ticksText(ticks).mid(QString::number(ticks).size());
}

}  // namespace ratelab::ui
