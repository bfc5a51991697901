// The comparison table draws its texts through StaticTextDelegate, which lays a new text out
// once and keeps the layout of a text it sees again. Both ways must put the same pixels on
// screen, or the figures would shift by a pixel as playback goes on.
#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QStyleFactory>
#include <QTest>

#include "panels/comparison_model.h"
#include "panels/comparison_panel.h"
#include "panels/static_text_delegate.h"
#include "session/frame_model.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

Frame defaultFrame(Tick now) {
    Frame frame;
    frame.result = simulate(std::make_shared<const Trace>(default_trace()), default_params());
    frame.revealed = frame.result;
    frame.now = now;
    frame.decided = frame.result->trace->requests.size();
    return frame;
}

/// Pixels clearly darker than the table's light backgrounds: its text, black or coloured.
int inkPixels(const QImage& image) {
    int dark = 0;
    for (int y = 0; y < image.height(); ++y) {
        for (int x = 0; x < image.width(); ++x) {
            dark += qGray(image.pixel(x, y)) < 160 ? 1 : 0;
        }
    }
    return dark;
}

}  // namespace

class ComparisonTableTest : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void keptLayoutsDrawWhatNewTextsDrew() {
        ComparisonPanel table;
        table.comparisonModel()->setFrame(defaultFrame(23));
        const QAbstractItemModel* model = table.model();
        const int line = table.fontMetrics().height();
        int cells = 0;
        // Cells of both height parities and of odd and even widths: rounding is where the two
        // ways of drawing could part.
        for (const QSize size : {QSize(240, line + 10), QSize(241, line + 11)}) {
            StaticTextDelegate delegate;  // nothing kept yet
            for (int row = 0; row < model->rowCount(); ++row) {
                for (int column = 0; column < model->columnCount(); ++column) {
                    const QModelIndex index = model->index(row, column);
                    const auto paintOnce = [&] {
                        QImage image(size, QImage::Format_ARGB32_Premultiplied);
                        image.fill(Qt::white);
                        QStyleOptionViewItem option;
                        option.initFrom(&table);
                        option.widget = &table;
                        option.rect = QRect(QPoint(0, 0), size);
                        option.state |= QStyle::State_Active;
                        QPainter painter(&image);
                        delegate.paint(&painter, option, index);
                        return image;
                    };
                    const QImage laid_out_now = paintOnce();  // a new text
                    const QImage kept = paintOnce();          // seen before: its layout is kept
                    QVERIFY2(kept == laid_out_now,
                             qPrintable(QStringLiteral("row %1, column %2").arg(row).arg(column)));
                    cells += inkPixels(kept) > 0 ? 1 : 0;
                }
            }
        }
        QVERIFY(cells >= 2 * 6 * 6);  // every row's name and figures drew something
    }
};

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    ComparisonTableTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "comparison_table_test.moc"
