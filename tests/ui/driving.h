#pragma once

// Helpers for driving the real main window with QTest.

#include <QPoint>
#include <QTest>
#include <memory>
#include <string>

#include "isolated_settings.h"
#include "ratelab/io/trace_file.h"
#include "session/session_document.h"
#include "window/file_controller.h"

#include "panels/comparison_model.h"
#include "panels/comparison_panel.h"
#include "session/trace_edits.h"
#include "timeline/timeline_scene.h"
#include "timeline/timeline_view.h"
#include "window/main_window.h"

namespace ratelab::ui::test {

/// A main window as a test drives it: fresh settings (an IsolatedSettings must exist), no
/// dialogs, 1280 × 800, shown.
inline std::unique_ptr<MainWindow> shownWindow() {
    IsolatedSettings::clear();
    auto window = std::make_unique<MainWindow>();
    window->files()->setInteractive(false);
    window->resize(1280, 800);
    window->show();
    return window;
}

/// The bundled trace `traces/NAME.json` as a document to open.
inline SessionDocument bundledDocument(const std::string& name) {
    io::TraceDocument file =
        io::load_trace(std::string(RATELAB_SOURCE_DIR) + "/traces/" + name + ".json");
    SessionDocument document = SessionDocument::empty();
    document.params = file.params;
    document.trace = std::make_shared<const Trace>(std::move(file.trace));
    return document;
}

/// Where the timeline draws tick `tick` in the trace row (an empty spot if none is there).
inline QPoint traceRowPoint(const TimelineView& view, Tick tick) {
    const TimelineScene scene = view.scene();
    return QPointF(scene.centreX(tick), scene.layout.trace.center().y()).toPoint();
}

/// Where the timeline draws request `index` in the trace row or in lane `lane` (-1: trace row),
/// in its key's sub-row when the lanes are split.
inline QPoint requestPoint(const TimelineView& view, std::size_t index, int lane = -1) {
    const TimelineScene scene = view.scene();
    return (lane < 0 ? scene.traceRow().point(scene.layout.trace, index)
                     : scene.lanePoint(static_cast<std::size_t>(lane), index))
        .toPoint();
}

/// The comparison table's text for `algorithm` in `column`.
inline QString tableText(const MainWindow& window, const std::string& algorithm, int column) {
    const ComparisonModel* model = window.comparison()->comparisonModel();
    for (int row = 0; row < model->rowCount(); ++row) {
        if (model->idAt(row) == algorithm) {
            return model->index(row, column).data().toString();
        }
    }
    return {};
}

/// Accepted plus rejected, as the table shows them, for every algorithm.
inline int tableDecisionTotal(const MainWindow& window) {
    const ComparisonModel* model = window.comparison()->comparisonModel();
    int total = 0;
    for (int row = 0; row < model->rowCount(); ++row) {
        total += model->index(row, ComparisonModel::kAccepted).data().toString().toInt();
        total += model->index(row, ComparisonModel::kRejected).data().toString().toInt();
    }
    return total;
}

}  // namespace ratelab::ui::test
