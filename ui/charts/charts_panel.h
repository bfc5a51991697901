#pragma once

#include <QStringList>
#include <QWidget>
#include <array>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>

#include "charts/chart_spec.h"
#include "charts/chart_specs.h"
#include "charts/export_dialog.h"
#include "charts/figure.h"

class QAction;
class QComboBox;
class QTabWidget;

namespace ratelab::ui {

class ChartSeries;
class ChartView;
class DockPresence;
struct Frame;

/// The five live charts of a simulation, one per tab, sharing the timeline's x axis.
///
/// Feed it every new result, the clock and the timeline's visible span; it draws only the chart
/// on show and decimates its series to the plot's pixel width, so million-request traces stay
/// responsive. Its context menus export a chart, copy it, and save the decisions.
class ChartsPanel : public QWidget {
    Q_OBJECT

public:
    explicit ChartsPanel(QWidget* parent = nullptr);
    ~ChartsPanel() override;

    /// A new simulation. The same result again changes nothing.
    void setResult(std::shared_ptr<const SimulationResult> result);
    std::shared_ptr<const SimulationResult> result() const { return result_; }
    /// The clock: the charts draw what has happened up to `tick`, and a cursor marks it.
    void setCurrentTick(Tick tick);
    /// No clock: the charts draw the whole trace.
    void clearCurrentTick();
    /// The timeline's visible span in its cell coordinates (tick t spans [t, t + 1)); the charts
    /// then show the same ticks, each under its timeline cell when the plot areas line up.
    void setVisibleRange(double from, double to);
    /// Back to the whole trace.
    void resetVisibleRange();

    /// Counts only the requests of these keys, by name, each lane's worst burst and the load
    /// judged by the key's own L when there is one; empty: every key. Names the trace does not
    /// have are left out, so the choice outlives an edit and a trace without them shows all.
    void setShownKeys(const QStringList& names);
    const QStringList& shownKeys() const { return shown_keys_; }
    /// The chooser of keys above the charts (shown for a trace of several keys).
    QComboBox* keyChooser() const { return key_chooser_; }

    /// The desktop app's snapshot: its result and its clock.
    void setFrame(const ratelab::ui::Frame& frame);
    /// Lets the export dialog offer the timeline and whole figures.
    void setTimelinePainter(TimelinePainter painter) { timeline_ = std::move(painter); }
    /// The scenario's name, for figure titles and captions.
    void setScenarioName(const QString& name) { scenario_ = name; }
    /// The trace's notes, drawn on exported timelines and figures.
    void setNotes(std::vector<TraceNote> notes) { notes_ = std::move(notes); }
    /// Whether exported timelines split their lanes by key, as the app's timeline does.
    void setSplitByKey(bool on) { split_by_key_ = on; }
    bool splitByKey() const { return split_by_key_; }

    /// Export, Copy Chart Image, Export Decisions, Export Report: for the File menu.
    QList<QAction*> exportActions() const { return export_actions_; }

    ChartKind currentChart() const;
    void setCurrentChart(ChartKind kind);
    ChartView* view(ChartKind kind) const;
    /// What the chart `kind` is drawn from right now (for exports: what you see is what you get).
    ChartInput input(int columns) const;
    /// The keys on show (the chooser's names) as key ids of the result's trace; empty: every key.
    std::vector<KeyId> shownKeyIds() const;
    /// Whether series are being computed for what is on show, on a thread (a trace of
    /// ChartSeries::kBackgroundRequests or more); the charts say so meanwhile.
    bool computingSeries() const;
    /// How `chosen` is drawn, and into `title` (when given) the title the file is given; an
    /// empty function before there is a result.
    PaintFunction exportPainter(const ExportRequest& chosen, QString* title) const;

public Q_SLOTS:
    /// File > Export: the export dialog, on the current chart.
    void exportChart();
    /// Writes what `chosen` asks for (a chart as shown, the timeline or a figure): the problem in
    /// words, or an empty string after exported() has said where it went.
    QString exportTo(const ratelab::ui::ExportRequest& chosen);
    void copyChartImage();
    void exportDecisions();
    /// The JSON report, the same as `ratelab-cli simulate` prints.
    void exportReport();

Q_SIGNALS:
    void currentChartChanged(ratelab::ui::ChartKind kind);
    /// An export was written: what and where, for the status bar.
    void exported(const QString& message);
    /// The keys on show changed (setShownKeys(), or the chooser).
    void shownKeysChanged(const QStringList& names);

protected:
    void showEvent(QShowEvent* event) override;

private:
    /// The result's series, computed when a chart first needs them: while the charts are
    /// hidden, edits and playback do not pay for them. For a big trace they are computed on a
    /// thread (ChartSeries), and this is empty until they are ready.
    std::shared_ptr<const ResultSeries> series() const;
    /// The series now, waiting for the thread computing them if there is one (exports).
    std::shared_ptr<const ResultSeries> seriesNow() const;
    void refresh(ChartKind kind);
    void refreshCurrent();
    /// Whether the charts can be seen. A dock whose tab is not raised keeps its contents
    /// "visible" (Qt moves them out of sight), so the dock's own signal is followed as well.
    void markAllStale();
    /// The pixel columns the chart `kind` is decimated to: its plot's, unless what it was
    /// drawn for is at most a third more.
    int columnsFor(ChartKind kind) const;
    QString hoverText(ChartKind kind, double x) const;
    /// Asks where to save (`caption`, `name` and `filter` for the dialog), writes the file with
    /// `write` as it streams, and says so (`done`, with the path for %1) or why not.
    void exportStreamed(const QString& caption, const QString& name, const QString& filter,
                        const QString& done, const std::function<void(std::ostream&)>& write);
    /// Lists the busiest keys of the trace in the chooser, and selects what is on show.
    void fillKeyChooser();

    QTabWidget* tabs_;
    QComboBox* key_chooser_;
    QStringList shown_keys_;
    /// The trace whose keys the chooser lists, and its keys.
    std::weak_ptr<const Trace> listed_trace_;
    std::vector<std::string> listed_keys_;
    std::array<ChartView*, 5> views_{};
    std::array<bool, 5> stale_{};
    /// The pixel columns each chart was last decimated to.
    std::array<int, 5> drawn_columns_{};
    /// Each time chart drawn for the whole trace at the current span and width; the clock only
    /// cuts it (cutAtTick), so playback stays cheap on long traces.
    struct WholeSpec {
        ChartSpec spec;
        const SimulationResult* result = nullptr;
        int columns = 0;
        double from = 0.0;
        double to = 0.0;
    };
    std::array<std::optional<WholeSpec>, 5> whole_;
    std::shared_ptr<const SimulationResult> result_;
    ChartSeries* series_;
    std::optional<Tick> now_;
    std::optional<std::pair<double, double>> range_;
    QList<QAction*> export_actions_;
    TimelinePainter timeline_;
    QString scenario_;
    std::vector<TraceNote> notes_;
    bool split_by_key_ = false;
    DockPresence* presence_;
};

}  // namespace ratelab::ui
