#include "window/charts_slot.h"

#include <QStatusBar>

#include "charts/charts_panel.h"
#include "charts/timeline_print.h"
#include "panels/comparison_model.h"
#include "panels/keys_panel.h"
#include "session/frame_model.h"
#include "session/session.h"
#include "timeline/timeline_view.h"

namespace ratelab::ui {

QWidget* createChartsWidget(const ChartsContext& context, QWidget* parent) {
    auto* panel = new ChartsPanel(parent);
    panel->setTimelinePainter(printedTimelinePainter());
    const auto name_scenario = [panel, session = context.session] {
        panel->setScenarioName(QString::fromStdString(session->document().name));
    };
    name_scenario();
    QObject::connect(context.session, &Session::documentReset, panel, name_scenario);
    const auto pass_notes = [panel, session = context.session] {
        panel->setNotes(session->notes());
    };
    pass_notes();
    QObject::connect(context.session, &Session::notesChanged, panel, pass_notes);
    // Exported timelines split their lanes as the app's does.
    panel->setSplitByKey(context.timeline->splitByKey());
    QObject::connect(context.timeline, &TimelineView::splitByKeyChanged, panel,
                     &ChartsPanel::setSplitByKey);
    // Another document: its keys are others, and the charts start from all of them.
    QObject::connect(context.session, &Session::documentReset, panel,
                     [panel] { panel->setShownKeys({}); });
    panel->setFrame(context.frames->frame());
    QObject::connect(context.frames, &FrameModel::frameChanged, panel, &ChartsPanel::setFrame);
    QObject::connect(context.timeline, &TimelineView::viewChanged, panel,
                     &ChartsPanel::setVisibleRange);
    // The keys the charts count are the keys the timeline draws in full.
    QObject::connect(panel, &ChartsPanel::shownKeysChanged, context.timeline,
                     &TimelineView::setShownKeys);
    if (context.status_bar != nullptr) {
        QObject::connect(panel, &ChartsPanel::exported, context.status_bar,
                         [bar = context.status_bar](const QString& message) {
                             bar->showMessage(message, 8000);
                         });
    }
    return panel;
}

QList<QAction*> chartsExportActions(QWidget* charts_widget) {
    auto* panel = qobject_cast<ChartsPanel*>(charts_widget);
    Q_ASSERT(panel);
    return panel->exportActions();
}

void followChosenKeys(QWidget* charts_widget, KeysPanel* keys, ComparisonModel* comparison) {
    auto* panel = qobject_cast<ChartsPanel*>(charts_widget);
    Q_ASSERT(panel);
    QObject::connect(keys, &KeysPanel::keysChosen, panel, &ChartsPanel::setShownKeys);
    QObject::connect(panel, &ChartsPanel::shownKeysChanged, comparison,
                     &ComparisonModel::setShownKeys);
    QObject::connect(
        panel, &ChartsPanel::shownKeysChanged, comparison,
        [panel, comparison](const QStringList& names) {
            if (names.size() != 1 || !panel->result())
                return;
            if (const auto key = panel->result()->trace->find_key(names.front().toStdString()))
                comparison->setKey(*key);
        });
}

}  // namespace ratelab::ui
