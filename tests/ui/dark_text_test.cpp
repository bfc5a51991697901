// Text and washes the timeline paints in its own colours must stay legible, and not turn muddy,
// on a dark palette, while light palettes keep the designed colours. Read from what is really
// painted and from the real tooltip text, on the offscreen platform.
#include <QApplication>
#include <QImage>
#include <QPainter>
#include <QRegularExpression>
#include <QStyleFactory>
#include <QUndoStack>
#include <QtTest>
#include <memory>

#include "dark_palette.h"
#include "driving.h"
#include "isolated_settings.h"
#include "session/playback_clock.h"
#include "session/session.h"
#include "timeline/decision_tooltip.h"
#include "timeline/timeline_palette.h"
#include "window/file_controller.h"

using namespace ratelab;
using namespace ratelab::ui;
using namespace ratelab::ui::test;
namespace marks = ratelab::ui::timeline_palette;

namespace {

/// The colour a tooltip writes `outcome` ("Accepted" or "Rejected") in.
QColor outcomeColour(const QString& html, const QString& outcome) {
    const QRegularExpression pattern(QStringLiteral("color:(#[0-9a-fA-F]{6})'>%1<").arg(outcome));
    const QRegularExpressionMatch match = pattern.match(html);
    return match.hasMatch() ? QColor(match.captured(1)) : QColor();
}

/// The highest contrast any pixel in `area` has against `background`: for text, its core.
double strongestContrast(const QImage& image, const QRect& area, const QColor& background) {
    double best = 1.0;
    for (int y = area.top(); y <= area.bottom(); ++y) {
        for (int x = area.left(); x <= area.right(); ++x) {
            best = std::max(best, marks::contrastRatio(image.pixelColor(x, y), background));
        }
    }
    return best;
}

}  // namespace

class DarkTextTest : public QObject {
    Q_OBJECT

private:
    IsolatedSettings settings_;
    QPalette light_;
    std::unique_ptr<MainWindow> window_;

    /// The first decision in `lane` that is accepted (or rejected).
    std::size_t firstDecision(std::size_t lane, bool accepted) const {
        const Frame& frame = window_->timeline()->frame();
        const AlgorithmRun& run = frame.result->runs[lane];
        for (std::size_t i = 0; i < frame.result->trace->requests.size(); ++i) {
            if (run.decision(*frame.result->trace, i).accepted == accepted) {
                return i;
            }
        }
        return frame.result->trace->requests.size();
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(settings_.isValid());
        light_ = QApplication::palette();
        QVERIFY(!marks::isDark(light_));
        QVERIFY(marks::isDark(darkPalette()));
        window_ = std::make_unique<MainWindow>();
        window_->files()->setInteractive(false);
        window_->resize(1280, 800);
        window_->show();
        QVERIFY(QTest::qWaitForWindowExposed(window_.get()));
    }
    void cleanupTestCase() {
        window_->session()->undoStack()->setClean();
        window_->close();
        window_.reset();
    }
    void init() {
        QApplication::setPalette(light_);
        window_->timeline()->setHighlightedLane(-1);
        QApplication::processEvents();
    }

    void playbackIconsAreLightOnADarkPalette() {
        // The style's media icons are a fixed dark grey, all but invisible on a dark toolbar.
        QAction* play = nullptr;
        for (QAction* action : window_->findChildren<QAction*>()) {
            if (action->text() == QStringLiteral("&Play"))
                play = action;
        }
        QVERIFY(play != nullptr);
        const auto lightness = [play] {
            const QImage image = play->icon().pixmap(22, 22).toImage();
            int sum = 0;
            int count = 0;
            for (int y = 0; y < image.height(); ++y) {
                for (int x = 0; x < image.width(); ++x) {
                    const QColor pixel = image.pixelColor(x, y);
                    if (pixel.alpha() > 128) {
                        sum += pixel.lightness();
                        ++count;
                    }
                }
            }
            return count == 0 ? -1 : sum / count;
        };
        const int on_light = lightness();
        QVERIFY2(on_light >= 0 && on_light < 128, qPrintable(QString::number(on_light)));
        QApplication::setPalette(darkPalette());
        QApplication::processEvents();
        QVERIFY2(lightness() > 180, qPrintable(QString::number(lightness())));
        QApplication::setPalette(light_);
        QApplication::processEvents();
        QCOMPARE(lightness(), on_light);
    }

    void tooltipOutcomesKeepTheirLightColours() {
        const std::size_t lane = 1;  // the sliding log accepts four and rejects four
        const QString accepted =
            decisionTooltip(window_->timeline()->frame(), lane, firstDecision(lane, true), light_);
        const QString rejected =
            decisionTooltip(window_->timeline()->frame(), lane, firstDecision(lane, false), light_);
        QCOMPARE(outcomeColour(accepted, QStringLiteral("Accepted")).name(),
                 marks::kAccepted.darker(120).name());
        QCOMPARE(outcomeColour(rejected, QStringLiteral("Rejected")).name(),
                 marks::kRejected.name());
    }

    void tooltipOutcomesReadOnADarkTooltip() {
        const QPalette dark = darkPalette();
        const QColor background = dark.color(QPalette::ToolTipBase);
        const std::size_t lane = 1;
        const QString accepted =
            decisionTooltip(window_->timeline()->frame(), lane, firstDecision(lane, true), dark);
        const QString rejected =
            decisionTooltip(window_->timeline()->frame(), lane, firstDecision(lane, false), dark);
        for (const QColor& colour : {outcomeColour(accepted, QStringLiteral("Accepted")),
                                     outcomeColour(rejected, QStringLiteral("Rejected"))}) {
            QVERIFY(colour.isValid());
            QVERIFY2(marks::contrastRatio(colour, background) >= 4.5, qPrintable(colour.name()));
        }
        // Still recognisably green and red.
        QVERIFY(outcomeColour(accepted, QStringLiteral("Accepted")).green() > 150);
        QVERIFY(outcomeColour(rejected, QStringLiteral("Rejected")).red() > 200);
    }

    void highlightedLaneIsAWashNotOliveOnDark() {
        TimelineView* view = window_->timeline();
        const QRectF lane = view->scene().layout.lanes[0];
        const QPoint empty = QPointF(view->scene().centreX(2), lane.center().y()).toPoint();
        const QColor light_plain = view->grab().toImage().pixelColor(empty);
        view->setHighlightedLane(0);
        const QColor light_lit = view->grab().toImage().pixelColor(empty);
        // The designed yellow wash.
        QVERIFY2(light_lit.blue() + 25 < light_lit.red(), qPrintable(light_lit.name()));

        QApplication::setPalette(darkPalette());
        view->setHighlightedLane(-1);
        QApplication::processEvents();
        const QColor plain = view->grab().toImage().pixelColor(empty);
        view->setHighlightedLane(0);
        const QColor lit = view->grab().toImage().pixelColor(empty);
        QVERIFY2(lit.lightnessF() > plain.lightnessF() + 0.03,
                 qPrintable(lit.name() + QStringLiteral(" on ") + plain.name()));
        QVERIFY2(lit.hslSaturationF() < 0.15, qPrintable(lit.name()));
        QVERIFY(light_plain != plain);
    }

    void overLimitFiguresReadOnDarkLanes_data() {
        QTest::addColumn<int>("lane");
        QTest::addColumn<bool>("highlighted");
        // Fixed window (8 > 4) on the alternate stripe, token bucket (6 > 4) on the base one.
        QTest::newRow("fixed window") << 0 << false;
        QTest::newRow("fixed window, highlighted") << 0 << true;
        QTest::newRow("token bucket") << 3 << false;
        QTest::newRow("token bucket, highlighted") << 3 << true;
    }
    void overLimitFiguresReadOnDarkLanes() {
        QFETCH(int, lane);
        QFETCH(bool, highlighted);
        QApplication::setPalette(darkPalette());
        TimelineView* view = window_->timeline();
        view->setHighlightedLane(highlighted ? lane : -1);
        QApplication::processEvents();
        const TimelineScene scene = view->scene();
        const QRectF row = scene.layout.lanes[static_cast<std::size_t>(lane)];
        const QImage image = view->grab().toImage();
        // The worst span runs from t = 6 to 16; its figure is written at the top right, inside.
        const int right = static_cast<int>(scene.x(16.0)) - 3;
        const QColor band = image.pixelColor(right - 4, static_cast<int>(row.bottom()) - 3);
        const QRect figure(right - 90, static_cast<int>(row.top()) + 7, 90, 11);
        const double contrast = strongestContrast(image, figure, band);
        QVERIFY2(contrast >= 4.5, qPrintable(QString::number(contrast)));
        QVERIFY(marks::contrastRatio(marks::overLimitLabel(darkPalette()), band) >= 4.5);
    }

    void overLimitFiguresReadOnLightLanes() {
        // The reddish purple of the band is too light for text on a light lane: the figure is a
        // darker shade of it, legible on the wash and on its hatch lines.
        const QColor label = marks::overLimitLabel(light_);
        QColor wash = marks::kBurstOver;
        wash.setAlpha(marks::kBurstOverWashAlpha);
        QColor hatch = marks::kBurstOver;
        hatch.setAlpha(marks::kBurstOverHatchAlpha);
        for (const QColor& stripe :
             {light_.color(QPalette::Base), light_.color(QPalette::AlternateBase)}) {
            QImage band(2, 1, QImage::Format_ARGB32);
            band.fill(stripe);
            QPainter painter(&band);
            painter.fillRect(QRect(0, 0, 2, 1), wash);
            painter.fillRect(QRect(1, 0, 1, 1), hatch);
            painter.end();
            for (int x = 0; x < 2; ++x) {
                QVERIFY2(marks::contrastRatio(label, band.pixelColor(x, 0)) >= 4.5,
                         qPrintable(label.name() + QStringLiteral(" on ") +
                                    band.pixelColor(x, 0).name()));
            }
        }
        QVERIFY(qAbs(label.hslHueF() - marks::kBurstOver.hslHueF()) < 0.02);
        QCOMPARE(marks::laneHighlight(light_), marks::kHighlight);
    }
};

int main(int argc, char* argv[]) {
    QApplication app(argc, argv);
    // The same style on every machine, so palette colours reach the widgets unchanged.
    QApplication::setStyle(QStyleFactory::create(QStringLiteral("Fusion")));
    DarkTextTest test;
    return QTest::qExec(&test, argc, argv);
}

#include "dark_text_test.moc"
