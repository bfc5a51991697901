// The comparison table draws its texts through StaticTextDelegate, which lays a new text out
// once and keeps the layout of a text it sees again. Both ways must put the same pixels on
// screen, or the figures would shift by a pixel as playback goes on.
#include <QApplication>
#include <QHeaderView>
#include <QImage>
#include <QPainter>
#include <QSignalSpy>
#include <QStyleFactory>
#include <QTest>
#include <memory>

#include "panels/comparison_model.h"
#include "panels/comparison_panel.h"
#include "panels/static_text_delegate.h"
#include "session/frame_model.h"

using namespace ratelab;
using namespace ratelab::ui;

namespace {

Frame defaultFrame(Tick now, Params params = default_params()) {
    Frame frame;
    frame.result = simulate(std::make_shared<const Trace>(default_trace()), params);
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

/// Counts the paint events a widget receives.
class PaintCounter : public QObject {
public:
    int paints = 0;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override {
        paints += event->type() == QEvent::Paint ? 1 : 0;
        return QObject::eventFilter(watched, event);
    }
};

/// A comparison table showing `frame`, shown and painted.
std::unique_ptr<ComparisonPanel> shownTable(const Frame& frame) {
    auto table = std::make_unique<ComparisonPanel>();
    table->resize(900, 300);
    table->comparisonModel()->setFrame(frame);
    table->show();
    if (!QTest::qWaitForWindowExposed(table.get())) {
        return nullptr;
    }
    QApplication::processEvents();
    return table;
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

    void headersChangeOnlyWithTheirTexts() {
        ComparisonModel model;
        model.setFrame(defaultFrame(23));
        QSignalSpy headers(&model, &QAbstractItemModel::headerDataChanged);
        QSignalSpy cells(&model, &QAbstractItemModel::dataChanged);
        model.setFrame(defaultFrame(23));  // an edit: new figures, the same clock and W
        QCOMPARE(cells.count(), 1);
        QCOMPARE(headers.count(), 0);

        // The clock's header is repainted, without headerDataChanged (which lays the whole
        // table out again).
        QSignalSpy clock_header(&model, &ComparisonModel::clockHeaderChanged);
        model.setFrame(defaultFrame(24));
        QCOMPARE(clock_header.count(), 1);
        QCOMPARE(headers.count(), 0);
        model.setFrame(defaultFrame(24));
        QCOMPARE(clock_header.count(), 1);

        Params wider = default_params();
        wider.base.window += 5;
        model.setFrame(defaultFrame(24, wider));
        QCOMPARE(headers.count(), 1);
        QCOMPARE(headers.at(0).at(1).toInt(), int(ComparisonModel::kWorstBurst));
        QCOMPARE(headers.at(0).at(2).toInt(), int(ComparisonModel::kWorstBurst));
        QVERIFY(model.headerData(ComparisonModel::kWorstBurst, Qt::Horizontal, Qt::DisplayRole)
                    .toString()
                    .contains(QString::number(wider.base.window)));
    }

    void anEditPaintsTheTableOnce() {
        // An edit that changes no header and no column width: one paint, not a second one after
        // the header has laid its columns out again.
        const auto table = shownTable(defaultFrame(23));
        QVERIFY(table);
        PaintCounter counter;
        table->viewport()->installEventFilter(&counter);
        table->comparisonModel()->setFrame(defaultFrame(23));  // re-simulated, as after an edit
        for (int round = 0; round < 5; ++round) {
            QApplication::processEvents();
        }
        QCOMPARE(counter.paints, 1);
    }

    void aClockStepPaintsTheTableOnce() {
        // A step names a new tick in the state column's header: the header repaints, and the
        // table still paints once.
        const auto table = shownTable(defaultFrame(23));
        QVERIFY(table);
        PaintCounter counter;
        table->viewport()->installEventFilter(&counter);
        PaintCounter header_paints;
        table->horizontalHeader()->viewport()->installEventFilter(&header_paints);
        table->comparisonModel()->setFrame(defaultFrame(24));
        for (int round = 0; round < 5; ++round) {
            QApplication::processEvents();
        }
        QCOMPARE(counter.paints, 1);
        // The header shows the new tick: as a table opened at tick 24 draws it.
        QVERIFY(header_paints.paints >= 1);
        const auto fresh = shownTable(defaultFrame(24));
        const auto before = shownTable(defaultFrame(23));
        QVERIFY(fresh && before);
        const QImage shown = table->horizontalHeader()->grab().toImage();
        QCOMPARE(shown, fresh->horizontalHeader()->grab().toImage());
        QVERIFY(shown != before->horizontalHeader()->grab().toImage());
    }

    void statesAreWrittenAsTheTooltipsWriteThem() {
        // The core's "estimate 1 x 0.70 + 0 = 0.70 of 4" reads with a times sign, as in the
        // decision tooltips.
        ComparisonModel model;
        model.setFrame(defaultFrame(23));
        int counter = -1;
        for (int row = 0; row < model.rowCount(); ++row) {
            counter = model.idAt(row) == "sliding_counter" ? row : counter;
        }
        QVERIFY(counter >= 0);
        const QString state = model.index(counter, ComparisonModel::kState).data().toString();
        QVERIFY2(state.startsWith(QStringLiteral("estimate 1 \u00d7 0.70")), qPrintable(state));
    }

    void noAlgorithmReportsADelayBeforeAnythingWasAccepted() {
        // At t = 0 of the default scenario nothing is decided: the leaky bucket's "Longest delay"
        // reads "—" like the other rows, not "0 ticks (0 s)", and says why.
        Frame start = defaultFrame(0);
        start.decided = 0;
        start.revealed = simulate_prefix(*start.result, 0, Tick(0));
        ComparisonModel model;
        model.setFrame(start);
        int leaky = -1;
        for (int row = 0; row < model.rowCount(); ++row) {
            const QModelIndex delay = model.index(row, ComparisonModel::kMaxDelay);
            QCOMPARE(delay.data().toString(), QStringLiteral("\u2014"));
            leaky = model.idAt(row) == "leaky_bucket" ? row : leaky;
        }
        QVERIFY(leaky >= 0);
        const QModelIndex delay = model.index(leaky, ComparisonModel::kMaxDelay);
        QCOMPARE(delay.data(Qt::ToolTipRole).toString(), QStringLiteral("Nothing accepted yet"));
        // Once it has accepted, its delay is a duration again.
        model.setFrame(defaultFrame(23));
        QCOMPARE(model.index(leaky, ComparisonModel::kMaxDelay).data().toString(),
                 QStringLiteral("9 ticks (9 s)"));
        QCOMPARE(model.index(0, ComparisonModel::kMaxDelay).data(Qt::ToolTipRole).toString(),
                 QStringLiteral("This algorithm decides at once and never makes a request wait"));
    }

    void columnsFitTheirTexts() {
        ComparisonPanel table;
        table.resize(1200, 300);
        const QAbstractItemModel* model = table.model();
        const auto widest = [&](int column) {
            int width = table.horizontalHeader()->sectionSizeHint(column);
            for (int row = 0; row < model->rowCount(); ++row) {
                const QModelIndex index = model->index(row, column);
                QFont font = table.font();
                if (const QVariant bold = index.data(Qt::FontRole); bold.isValid()) {
                    font = bold.value<QFont>();
                }
                width = std::max(width, QFontMetrics(font).horizontalAdvance(
                                            index.data(Qt::DisplayRole).toString()));
            }
            return width;
        };
        const auto checkFit = [&](const char* when) {
            for (int column = 0; column < model->columnCount(); ++column) {
                if (column == ComparisonModel::kState) {
                    continue;
                }
                const int width = table.columnWidth(column);
                const int needed = widest(column);
                // Room for the text, and no more than the cell margins beyond it.
                QVERIFY2(width >= needed && width <= needed + 30,
                         qPrintable(QStringLiteral("%1: column %2 is %3 px for %4 px of text")
                                        .arg(QLatin1String(when))
                                        .arg(column)
                                        .arg(width)
                                        .arg(needed)));
            }
        };
        table.comparisonModel()->setFrame(defaultFrame(23));
        checkFit("default trace");

        // Costs make the counts read "n (cost m)": the columns grow, and shrink back after.
        Trace costly = default_trace();
        for (std::size_t i = 0; i < costly.requests.size(); ++i) {
            costly.requests[i].cost = 12345;
        }
        Params params = default_params();
        params.base.limit = 1'000'000;
        Frame wide;
        wide.result = simulate(std::make_shared<const Trace>(costly), params);
        wide.revealed = wide.result;
        wide.now = 23;
        wide.decided = wide.result->trace->requests.size();
        const int narrow_accepted = table.columnWidth(ComparisonModel::kAccepted);
        table.comparisonModel()->setFrame(wide);
        checkFit("costly requests");
        QVERIFY(table.columnWidth(ComparisonModel::kAccepted) > narrow_accepted);
        table.comparisonModel()->setFrame(defaultFrame(23));
        checkFit("default trace again");
        QCOMPARE(table.columnWidth(ComparisonModel::kAccepted), narrow_accepted);
    }
};

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    ComparisonTableTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "comparison_table_test.moc"
