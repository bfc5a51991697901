#pragma once

#include <QApplication>
#include <QDir>
#include <QSettings>
#include <QTemporaryDir>

namespace ratelab::ui::test {

/// Points QSettings, and the data and cache folders (autosave copies live there), at a fresh
/// temporary folder for the whole test program, so tests never read or write the user's real
/// files, whatever the environment says. Create it before anything creates a QSettings or asks
/// QStandardPaths; clear() at the start of each test keeps the tests order-independent.
class IsolatedSettings {
public:
    IsolatedSettings() {
        QApplication::setOrganizationName(QStringLiteral("RateLabTests"));
        QApplication::setApplicationName(QStringLiteral("ratelab-ui-test"));
        for (const char* variable : {"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME"}) {
            qputenv(variable, QDir(folder_.path()).filePath(QLatin1String(variable)).toLocal8Bit());
        }
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
