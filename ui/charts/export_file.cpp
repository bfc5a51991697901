#include "charts/export_file.h"

#include <QFile>

namespace ratelab::ui {

namespace {

template <class What>
QString written(const QString& path, const What& what) {
    try {
        io::write_file(QFile::encodeName(path).toStdString(), what);
    } catch (const io::FileWriteError& error) {
        return QString::fromStdString(error.reason());
    }
    return {};
}

}  // namespace

QString exportBytes(const QString& path, std::string_view bytes) {
    return written(path, bytes);
}

QString exportStream(const QString& path, const io::Content& content) {
    return written(path, content);
}

}  // namespace ratelab::ui
