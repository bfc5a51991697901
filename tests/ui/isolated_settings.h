#pragma once

#include <QApplication>
#include <QSettings>
#include <QTemporaryDir>

namespace ratelab::ui::test {

/// Points QSettings at a fresh temporary folder for the whole test program, so tests never read
/// or write the user's real settings, whatever the environment says. Call it before anything
/// creates a QSettings; clear() at the start of each test keeps the tests order-independent.
class IsolatedSettings {
public:
    IsolatedSettings() {
        QApplication::setOrganizationName(QStringLiteral("RateLabTests"));
        QApplication::setApplicationName(QStringLiteral("ratelab-ui-test"));
        for (const auto format : {QSettings::NativeFormat, QSettings::IniFormat}) {
            QSettings::setPath(format, QSettings::UserScope, folder_.path());
            QSettings::setPath(format, QSettings::SystemScope, folder_.path());
        }
    }

    bool isValid() const { return folder_.isValid(); }
    QString path() const { return folder_.path(); }
    /// Forgets everything the previous test remembered.
    static void clear() {
        QSettings settings;
        settings.clear();
        settings.sync();
    }

private:
    QTemporaryDir folder_;
};

}  // namespace ratelab::ui::test
