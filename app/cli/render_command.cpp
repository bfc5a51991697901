// ratelab-cli render: draws a chart, the timeline or a composed figure of a trace as PNG, SVG or
// PDF without any display, with the same drawing code as the desktop app.
#include <filesystem>
#include <memory>
#include <string>

#include "cli_support.h"
#include "ratelab/io/terminal_text.h"
#include "ratelab/io/trace_file.h"
#include "ratelab/limits.h"

#ifdef RATELAB_CLI_RENDER
#include <QApplication>
#include <QBuffer>
#include <QImageWriter>

#include "charts/chart_render.h"
#include "charts/chart_specs.h"
#include "charts/figure.h"
#include "charts/sweep_plot.h"
#include "charts/timeline_print.h"
#include "ratelab/io/sweep_spec.h"
#include "ratelab/sweep.h"
#endif

namespace ratelab::cli {

namespace {

const char* const kViews = "load, cumulative, queue, bucket, worst, timeline, figure or sweep";

#ifdef RATELAB_CLI_RENDER

/// Qt's own chatter (missing runtime folders, platform notes) would drown the one-line errors
/// the command line promises; only fatal messages get through.
void quiet_qt_messages(QtMsgType type, const QMessageLogContext&, const QString& message) {
    if (type == QtFatalMsg || type == QtCriticalMsg)
        fprintf(stderr, "ratelab-cli render: %s\n", qPrintable(message));
}

ui::ImageFormat chosen_format(const Arguments& args) {
    std::string name = args.get("format").value_or("");
    if (name.empty()) {
        const std::string output = args.get("output").value_or("-");
        name = std::filesystem::path(output).extension().string();
        if (!name.empty())
            name.erase(0, 1);
        if (name.empty())
            throw UsageError("say --format png|svg|pdf, or give -o a file name ending in one");
    }
    const auto format = ui::imageFormatFromName(QString::fromStdString(name));
    if (!format)
        throw UsageError("unknown format \"" + name + "\" (known: png, svg, pdf)");
    return *format;
}

std::string to_bytes(const ui::PaintFunction& paint, ui::ImageFormat format, QSize size, int scale,
                     const QString& title) {
    QByteArray bytes;
    if (format == ui::ImageFormat::Png) {
        QBuffer buffer(&bytes);
        buffer.open(QIODevice::WriteOnly);
        QImageWriter writer(&buffer, "png");
        if (!writer.write(ui::renderImage(paint, size, scale)))
            throw std::runtime_error("cannot encode the PNG: " +
                                     writer.errorString().toStdString());
    } else if (format == ui::ImageFormat::Svg) {
        bytes = ui::renderSvg(paint, size, title);
    } else {
        bytes = ui::renderPdf(paint, size, title);
    }
    return bytes.toStdString();
}

void start_qt() {
    // Charts need a QApplication (not merely a QGuiApplication), and no display is needed:
    // the offscreen platform draws the same pixels everywhere, unless the caller chose another.
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    qInstallMessageHandler(quiet_qt_messages);
}

/// --view sweep: one lane (the first of the trace's or --lane's) over the --vary axes, one
/// (a line) or two (a heatmap), showing --metric, with the trace's own setting marked.
int render_sweep(const Arguments& args, const Trace& trace, const Params& params,
                 ui::ImageFormat format, QSize size, int scale, CommandIo& io) {
    std::vector<SweepAxis> axes;
    try {
        axes = io::parse_sweep_axes(args.all("vary"));
    } catch (const io::SweepSpecError& error) {
        throw UsageError(std::string("--vary ") + error.what());
    }
    if (axes.empty() || axes.size() > 2)
        throw UsageError("--view sweep draws one or two --vary axes, not " +
                         std::to_string(axes.size()));
    const std::string metric_name = args.get("metric").value_or("rejected");
    const auto metric = ui::sweepMetricFromName(QString::fromStdString(metric_name));
    if (!metric)
        throw UsageError("unknown --metric \"" + metric_name +
                         "\" (known: rejected, burst, p95_delay, max_delay)");
    Params one = params;
    one.lanes = {sweep_lanes(params, axes).front()};
    one.lanes.front().hidden = false;
    const SweepResult result = sweep(trace, one, axes);
    start_qt();
    int argc = 1;
    char name[] = "ratelab-cli";
    char* argv[] = {name, nullptr};
    QApplication app(argc, argv);
    ui::SweepPlotSpec spec =
        ui::sweepPlotSpec(result, 0, *metric, sweep_point_of(axes, params, one.lanes.front()));
    if (const auto frontier = zero_rejection_frontier(trace, one, axes, 0))
        ui::addFrontier(spec, *frontier);
    if (const auto title = args.get("title"))
        spec.title = QString::fromStdString(title->substr(0, 4 * ui::kMaxDrawnTextLength));
    write_output(args, to_bytes(ui::printedSweepPlot(spec), format, size, scale, spec.title), io);
    return kExitOk;
}

int run_render(const Arguments& args, CommandIo& io) {
    if (!args.get("output"))
        throw UsageError("say where to write the image with -o FILE (\"-\" for standard output)");
    const std::string view_name = args.get("view").value_or("load");
    const bool sweep_view = view_name == "sweep";
    const auto view = sweep_view ? std::optional<ui::ExportView>(ui::ExportView::Load)
                                 : ui::exportViewFromName(QString::fromStdString(view_name));
    if (!view)
        throw UsageError("unknown view \"" + view_name + "\" (known: " + kViews + ")");
    if (!sweep_view && (args.has("vary") || args.has("metric")))
        throw UsageError("--vary and --metric are for --view sweep");
    for (const char* option : {"keys", "split-keys"}) {
        if (sweep_view && args.has(option))
            throw UsageError(std::string("--") + option +
                             " is not for --view sweep, which draws one lane over settings");
    }
    const ui::ImageFormat format = chosen_format(args);
    const QSize defaults = sweep_view ? QSize(900, 500) : ui::defaultExportSize(*view);
    const QSize size(
        static_cast<int>(args.integer("width", 200, 8000).value_or(defaults.width())),
        static_cast<int>(args.integer("height", 150, 8000).value_or(defaults.height())));
    const int scale = static_cast<int>(args.integer("scale", 1, 4).value_or(1));
    // A PNG is drawn in memory first, four bytes a device pixel; past this Qt refuses to make
    // the image at all ("Image is empty"), so say the limit instead.
    constexpr std::int64_t kMaxPngPixels = std::int64_t{1} << 28;  // 1 GiB of image
    const std::int64_t device_pixels =
        std::int64_t{size.width()} * scale * std::int64_t{size.height()} * scale;
    if (format == ui::ImageFormat::Png && device_pixels > kMaxPngPixels) {
        throw UsageError("a PNG of " + std::to_string(size.width() * scale) + " x " +
                         std::to_string(size.height() * scale) +
                         " device pixels is too large: width x scale times height x scale may be "
                         "at most " +
                         std::to_string(kMaxPngPixels) +
                         " pixels (1 GiB of image); lower --scale or the size, or write SVG or "
                         "PDF");
    }

    io::TraceDocument doc = io::load_trace(args.positionals[0]);
    for (const std::string& warning : doc.warnings)
        io.err << "ratelab-cli render: " << io::terminal_safe(args.positionals[0]) << ": "
               << io::terminal_safe(warning) << "\n";
    if (auto limit = args.integer("limit", 1, bounds::kMaxLimit))
        doc.params.base.limit = *limit;
    if (auto window = args.integer("window", 1, bounds::kMaxWindow))
        doc.params.base.window = *window;
    const auto trace = std::make_shared<const Trace>(std::move(doc.trace));
    apply_lane_options(args, doc.params);
    set_tick_ms(doc.params, doc.tick_ms);
    if (sweep_view)
        return render_sweep(args, *trace, doc.params, format, size, scale, io);
    // A figure shows what the app shows: the lanes that are not hidden.
    const auto result = simulate(trace, without_hidden_lanes(doc.params));

    start_qt();
    int argc = 1;
    char name[] = "ratelab-cli";
    char* argv[] = {name, nullptr};
    QApplication app(argc, argv);

    ui::FigureRequest request;
    request.view = *view;
    request.result = result;
    request.columns = size.width() * scale;
    request.device_pixel_ratio = scale;
    // Only the start of a name can be drawn; a name of hundreds of megabytes is never converted.
    const auto start_of = [](const std::string& text) {
        return QString::fromStdString(text.substr(0, 4 * ui::kMaxDrawnTextLength));
    };
    request.scenario = start_of(
        doc.name.empty() ? std::filesystem::path(args.positionals[0]).stem().string() : doc.name);
    request.title = start_of(args.get("title").value_or(""));
    request.timeline = ui::printedTimelinePainter();
    request.notes = std::move(doc.notes);
    request.split_by_key = args.has("split-keys");
    if (const auto names = args.get("keys")) {
        for (const std::string& key_name : split_list(*names)) {
            const auto key = trace->find_key(key_name);
            if (!key)
                throw UsageError("--keys: the trace has no key \"" + io::terminal_safe(key_name) +
                                 "\"");
            request.keys.push_back(*key);
        }
    }
    const ui::PaintFunction paint = ui::figurePainter(request);
    write_output(args, to_bytes(paint, format, size, scale, ui::figureTitle(request)), io);
    return kExitOk;
}

#else

int run_render(const Arguments&, CommandIo& io) {
    io.err << "ratelab-cli render: this build has no Qt, so it cannot draw; rebuild with the "
              "desktop app (RATELAB_BUILD_GUI=ON)\n";
    return kExitFailure;
}

#endif

}  // namespace

Command make_render_command() {
    return {
        "render",
        "draw a chart, the timeline or a figure of a trace as PNG, SVG or PDF",
        "render TRACE.json --view VIEW -o FILE [options]",
        std::string("Draws without a display, with the desktop app's drawing code and its light\n"
                    "print theme, so a docs pipeline can regenerate every figure. VIEW is ") +
            kViews +
            ".\n"
            "A figure composes a title, the timeline, the comparison table, the load chart\n"
            "and a caption. A sweep draws the first lane over one --vary axis (a line) or\n"
            "two (a heatmap), as ratelab-cli sweep takes them, showing --metric, with the\n"
            "trace's own setting marked, and where a token bucket's or GCRA's closed form\n"
            "says it stops rejecting when the first axis is its capacity, burst or rate.\n"
            "Sizes are logical pixels (points in a PDF); --scale "
            "multiplies\n"
            "the pixels of a PNG. SVG keeps its text as text; PDF embeds its fonts.",
        with_lane_options(
            {{"view", "VIEW", "what to draw (default: load)"},
             {"format", "FORMAT", "png, svg or pdf (default: from the file name)"},
             {"width", "PX", "width in logical pixels (default: 800; figure 1000)"},
             {"height", "PX", "height in logical pixels (default: 450; figure and timeline more)"},
             {"scale", "N", "device pixels per logical pixel in a PNG, 1 to 4 (default: 1)"},
             {"limit", "L", "override the trace's limit L"},
             {"window", "W", "override the trace's window W (ticks)"},
             {"title", "TEXT", "replace the title"},
             {"keys", "NAME,...",
              "draw these keys only, as the app's key chooser: the charts, the table and the "
              "timeline count them, each against its own tier"},
             {"split-keys", "",
              "split the timeline's lanes by key, a row per key (two to eight keys on show)"},
             {"vary", "NAME=VALUES",
              "sweep only: an axis, as ratelab-cli sweep takes it (one or two)"},
             {"metric", "METRIC",
              "sweep only: rejected, burst, p95_delay or max_delay (default: rejected)"},
             output_option("the image")}),
        1,
        1,
        false,
        run_render};
}

}  // namespace ratelab::cli
