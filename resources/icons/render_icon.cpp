// Renders the scalable application icon into the fixed-size PNGs that hicolor icon themes expect,
// so the PNGs are always derived from the one SVG instead of being drawn and committed separately.
//
//   ratelab_render_icon ICON.svg OUTDIR NAME SIZE...
// writes OUTDIR/<SIZE>x<SIZE>/apps/NAME.png for every SIZE.

#include <QDir>
#include <QImage>
#include <QPainter>
#include <QString>
#include <QStringList>
#include <QSvgRenderer>
#include <cstdio>

namespace {

int fail(const QString& message) {
    std::fprintf(stderr, "ratelab_render_icon: %s\n", qPrintable(message));
    return 1;
}

}  // namespace

int main(int argc, char** argv) {
    // No QGuiApplication: painting vector shapes into a QImage needs no platform or display, and
    // the icon has no text that would need the font database.
    QStringList args;
    for (int i = 0; i < argc; ++i) {
        args.append(QString::fromLocal8Bit(argv[i]));
    }
    if (args.size() < 5) {
        return fail(QStringLiteral("usage: ratelab_render_icon ICON.svg OUTDIR NAME SIZE..."));
    }

    QSvgRenderer renderer(args.at(1));
    if (!renderer.isValid()) {
        return fail(QStringLiteral("%1 is not a valid SVG image").arg(args.at(1)));
    }
    const QString out_dir = args.at(2);
    const QString name = args.at(3);

    for (qsizetype i = 4; i < args.size(); ++i) {
        bool is_number = false;
        const int size = args.at(i).toInt(&is_number);
        if (!is_number || size < 8 || size > 1024) {
            return fail(
                QStringLiteral("size '%1' must be a whole number from 8 to 1024").arg(args.at(i)));
        }
        QImage image(size, size, QImage::Format_ARGB32_Premultiplied);
        image.fill(Qt::transparent);
        {
            QPainter painter(&image);
            painter.setRenderHint(QPainter::Antialiasing);
            painter.setRenderHint(QPainter::SmoothPixmapTransform);
            renderer.render(&painter);
        }
        const QString dir = QStringLiteral("%1/%2x%2/apps").arg(out_dir).arg(size);
        const QString path = QStringLiteral("%1/%2.png").arg(dir, name);
        if (!QDir().mkpath(dir) || !image.save(path, "PNG")) {
            return fail(QStringLiteral("cannot write %1").arg(path));
        }
    }
    return 0;
}
