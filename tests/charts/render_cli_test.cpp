// ratelab-cli render as a docs pipeline runs it: separate processes, files on disk, exit statuses.
#include <QFile>
#include <QImage>
#include <QRegularExpression>
#include <QXmlStreamReader>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <sys/wait.h>
#include <unistd.h>

#include "catch.h"

namespace fs = std::filesystem;

namespace {

struct Run {
    int status = -1;
    std::string err;
};

const std::string kTrace = std::string(RATELAB_SOURCE_DIR) + "/traces/boundary-burst.json";

/// Runs ratelab-cli with `args`; stderr is kept, stdout dropped.
Run render(const std::string& args) {
    // One file a process: ctest runs the cases of this file side by side.
    const fs::path err_file =
        fs::temp_directory_path() / ("ratelab-render-test-" + std::to_string(::getpid()) + ".err");
    const std::string command = std::string("\"") + RATELAB_CLI + "\" " + args + " 2>\"" +
                                err_file.string() + "\" >/dev/null";
    Run run;
    const int raw = std::system(command.c_str());
    run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
    QFile err(QString::fromStdString(err_file.string()));
    if (err.open(QIODevice::ReadOnly))
        run.err = err.readAll().toStdString();
    err.remove();
    return run;
}

/// A fresh folder for one test case, removed when the case ends, also when it fails.
class Scratch {
public:
    explicit Scratch(const std::string& name)
        : dir_(fs::temp_directory_path() /
               ("ratelab-render-" + name + "-" + std::to_string(::getpid()))) {
        fs::remove_all(dir_);
        fs::create_directories(dir_);
    }
    ~Scratch() {
        std::error_code ignored;
        fs::remove_all(dir_, ignored);
    }
    Scratch(const Scratch&) = delete;
    Scratch& operator=(const Scratch&) = delete;

    const fs::path& path() const { return dir_; }
    fs::path operator/(const fs::path& name) const { return dir_ / name; }

private:
    fs::path dir_;
};

QByteArray bytes(const fs::path& file) {
    QFile f(QString::fromStdString(file.string()));
    REQUIRE(f.open(QIODevice::ReadOnly));
    return f.readAll();
}

}  // namespace

TEST_CASE("render: every view as SVG, well-formed and the same bytes every time") {
    const Scratch dir("svg");
    for (const char* view :
         {"load", "cumulative", "queue", "bucket", "worst", "timeline", "figure"}) {
        INFO(view);
        const fs::path first = dir / (std::string(view) + "-1.svg");
        const fs::path second = dir / (std::string(view) + "-2.svg");
        const std::string args = "render \"" + kTrace + "\" --view " + view + " -o ";
        REQUIRE(render(args + "\"" + first.string() + "\"").status == 0);
        REQUIRE(render(args + "\"" + second.string() + "\"").status == 0);
        const QByteArray svg = bytes(first);
        CHECK(svg == bytes(second));
        QXmlStreamReader xml(svg);
        while (!xml.atEnd())
            xml.readNext();
        CHECK_FALSE(xml.hasError());
        CHECK(svg.contains("<text"));
    }
}

TEST_CASE("render: a figure names the scenario and shows every algorithm") {
    const Scratch dir("figure");
    const fs::path out = dir / "figure.svg";
    REQUIRE(render("render \"" + kTrace + "\" --view figure -o \"" + out.string() + "\"").status ==
            0);
    const QString svg = QString::fromUtf8(bytes(out));
    CHECK(svg.contains(QStringLiteral("The boundary burst, L = 4, W = 10")));
    for (const char* name :
         {"Fixed window", "Sliding log", "Sliding counter", "Token bucket", "Leaky bucket", "GCRA"})
        CHECK(svg.contains(QString::fromLatin1(name)));
    CHECK(svg.contains(QStringLiteral("Worst burst in 10 ticks")));
}

TEST_CASE("render: --keys draws those keys only, as the app's key chooser does") {
    const Scratch dir("keys");
    const std::string tiers = std::string(RATELAB_SOURCE_DIR) + "/traces/key-tiers.json";
    const fs::path all = dir / "all.svg";
    const fs::path pro = dir / "pro.svg";
    REQUIRE(render("render \"" + tiers + "\" --view figure -o \"" + all.string() + "\"").status ==
            0);
    REQUIRE(render("render \"" + tiers + "\" --view figure --keys pro -o \"" + pro.string() + "\"")
                .status == 0);
    const QString every = QString::fromUtf8(bytes(all));
    const QString one = QString::fromUtf8(bytes(pro));
    CHECK(one.contains(QStringLiteral("key \u201cpro\u201d only")));
    CHECK_FALSE(every.contains(QStringLiteral("only")));
    // The sliding log lets through 2 + 8 + 4 = 14 requests of the three keys, 8 of pro's ten:
    // the lanes count pro's alone, and the table's worst burst is pro's against its own 8.
    CHECK(every.contains(QStringLiteral("14 ok \u00b7 16 rejected")));
    CHECK_FALSE(one.contains(QStringLiteral("14 ok")));
    CHECK(one.contains(QStringLiteral("8 ok \u00b7 2 rejected")));
    CHECK(one.contains(QStringLiteral("pro: 8 in 10 ticks from t = 0")));
    CHECK_FALSE(every.contains(QStringLiteral("pro: 8 in 10 ticks from t = 0")));
    CHECK(one.contains(QStringLiteral("only pro")));  // the trace row says whose requests count
}

TEST_CASE("render: --split-keys gives every lane a row per key, each against its own tier") {
    const Scratch dir("split");
    const std::string tiers = std::string(RATELAB_SOURCE_DIR) + "/traces/key-tiers.json";
    const fs::path whole = dir / "whole.svg";
    const fs::path split = dir / "split.svg";
    REQUIRE(
        render("render \"" + tiers + "\" --view timeline -o \"" + whole.string() + "\"").status ==
        0);
    REQUIRE(render("render \"" + tiers + "\" --view timeline --split-keys -o \"" + split.string() +
                   "\"")
                .status == 0);
    const QString one = QString::fromUtf8(bytes(whole));
    const QString rows = QString::fromUtf8(bytes(split));
    // Unsplit, the token bucket's lane is judged by its worst key, guest; split, pro's row has
    // its own figure against pro's L = 8, and free's its own.
    CHECK(one.contains(QStringLiteral("guest: 5 in 10 ticks &gt; 4")));
    CHECK_FALSE(one.contains(QStringLiteral(">10 in 10 ticks &gt; 8<")));
    CHECK(rows.contains(QStringLiteral(">10 in 10 ticks &gt; 8<")));
    CHECK(rows.contains(QStringLiteral(">2 in 10 ticks<")));
    // The keys' names beside their rows, and in the legend with their colours.
    CHECK(rows.count(QStringLiteral(">pro<")) >= 6);
    CHECK(one.contains(QStringLiteral("key pro")));
    // With one key on show there is nothing to split.
    const fs::path pro = dir / "pro.svg";
    REQUIRE(render("render \"" + tiers + "\" --view timeline --split-keys --keys pro -o \"" +
                   pro.string() + "\"")
                .status == 0);
    CHECK(QString::fromUtf8(bytes(pro)).count(QStringLiteral(">pro<")) == 0);
}

TEST_CASE("render: the trace's notes are drawn on the timeline and the figure") {
    const Scratch dir("notes");
    const fs::path trace = dir / "noted.json";
    {
        std::ofstream out(trace);
        out << R"({"format": "ratelab-trace", "version": 1, "limit": 4, "window": 10,
                   "notes": [{"tick": 10, "text": "The window turns over"}],
                   "requests": [{"tick": 6}, {"tick": 7}, {"tick": 10}, {"tick": 11}]})";
    }
    for (const char* view : {"timeline", "figure"}) {
        INFO(view);
        const fs::path svg = dir / (std::string(view) + ".svg");
        REQUIRE(render("render \"" + trace.string() + "\" --view " + view + " -o \"" +
                       svg.string() + "\"")
                    .status == 0);
        const QString text = QString::fromUtf8(bytes(svg));
        CHECK(text.contains(QStringLiteral("The window turns over")));
        CHECK(text.contains(QStringLiteral(">Notes<")));  // the strip's name in the margin
    }
    // Without notes there is no strip.
    const fs::path bare = dir / "bare.svg";
    REQUIRE(
        render("render \"" + kTrace + "\" --view timeline -o \"" + bare.string() + "\"").status ==
        0);
    CHECK_FALSE(QString::fromUtf8(bytes(bare)).contains(QStringLiteral(">Notes<")));
}

TEST_CASE("render: a note cut short on the timeline is written out whole under the legend") {
    // A print has no tooltip to give a cut note's whole text.
    const Scratch dir("cut-notes");
    const fs::path trace = dir / "noted.json";
    {
        std::ofstream out(trace);
        out << R"({"format": "ratelab-trace", "version": 1, "limit": 4, "window": 10,
                   "notes": [{"tick": 6, "text": "four arrive just before the boundary"},
                             {"tick": 7, "text": "the fixed window still counts them"},
                             {"tick": 8, "text": "x"}, {"tick": 30, "text": "quiet"}],
                   "requests": [{"tick": 6}, {"tick": 7}, {"tick": 10}, {"tick": 11}]})";
    }
    const fs::path svg = dir / "timeline.svg";
    REQUIRE(render("render \"" + trace.string() + "\" --view timeline -o \"" + svg.string() + "\"")
                .status == 0);
    const QString text = QString::fromUtf8(bytes(svg));
    CHECK(text.contains(QStringLiteral("t = 6: four arrive just before the boundary")));
    CHECK(text.contains(QStringLiteral("t = 7: the fixed window still counts them")));
    // A note whose label fits is not repeated.
    CHECK_FALSE(text.contains(QStringLiteral("t = 30: quiet")));
    CHECK_FALSE(text.contains(QStringLiteral("t = 8: x")));
}

TEST_CASE("render: PNG size follows width, height and scale, and a PDF is one page of that size") {
    const Scratch dir("sizes");
    const fs::path png = dir / "load.png";
    REQUIRE(render("render \"" + kTrace +
                   "\" --view bucket --width 640 --height 360 --scale 2 -o \"" + png.string() +
                   "\"")
                .status == 0);
    const QImage image(QString::fromStdString(png.string()));
    CHECK(image.width() == 1280);
    CHECK(image.height() == 720);
    const fs::path pdf = dir / "worst.pdf";
    REQUIRE(render("render \"" + kTrace + "\" --view worst --width 500 --height 300 -o \"" +
                   pdf.string() + "\"")
                .status == 0);
    const QString text = QString::fromLatin1(bytes(pdf));
    CHECK(text.count(QRegularExpression(QStringLiteral("/Type\\s*/Page[^s]"))) == 1);
    CHECK(text.contains(
        QRegularExpression(QStringLiteral("/MediaBox\\s*\\[0 0 500(\\.0+)? 300(\\.0+)?\\]"))));
}

TEST_CASE("render: --limit, --window and --title change what is drawn") {
    const Scratch dir("options");
    const fs::path out = dir / "load.svg";
    REQUIRE(render("render \"" + kTrace +
                   "\" --view load --limit 3 --window 5 --title \"Three per five\" -o \"" +
                   out.string() + "\"")
                .status == 0);
    const QString svg = QString::fromUtf8(bytes(out));
    CHECK(svg.contains(QStringLiteral("Three per five")));
    CHECK(svg.contains(QStringLiteral("L = 3")));
    CHECK(svg.contains(QStringLiteral("2L = 6")));
}

TEST_CASE("render: bad input gives status 2 and one line naming the problem") {
    const Scratch dir("bad");
    const std::string out = "\"" + (dir / "x.png").string() + "\"";
    const std::array<std::pair<std::string, std::string>, 8> cases{{
        {"render \"" + kTrace + "\" --view pie -o " + out, "unknown view \"pie\""},
        {"render \"" + kTrace + "\" --format gif -o " + out, "unknown format \"gif\""},
        {"render \"" + kTrace + "\" --view load", "-o FILE"},
        {"render \"" + kTrace + "\" --width 5 -o " + out, "width"},
        {"render \"" + dir.path().string() + "/missing.json\" -o " + out, "missing.json"},
        {"render \"" + kTrace + "\" --keys pro -o " + out, "no key \"pro\""},
        {"render \"" + kTrace + "\" --view sweep --vary limit=1..3 --keys pro -o " + out,
         "--keys is not for --view sweep"},
        {"render \"" + kTrace + "\" --view sweep --vary limit=1..3 --split-keys -o " + out,
         "--split-keys is not for --view sweep"},
    }};
    for (const auto& [args, expected] : cases) {
        INFO(args);
        const Run run = render(args);
        CHECK(run.status == 2);
        CHECK(run.err.find(expected) != std::string::npos);
        CHECK(std::count(run.err.begin(), run.err.end(), '\n') == 1);
    }
    CHECK_FALSE(fs::exists(dir / "x.png"));
}

TEST_CASE(
    "render: a name of megabytes, or of nothing but combining marks, is cut to what is drawn") {
    Scratch dir("long-name");
    // Two megabytes of name: one letter under a million combining acute accents, then more.
    std::string name = "A";
    for (int i = 0; i < 1'000'000; ++i)
        name += "\xCC\x81";
    const fs::path trace = dir / "long.json";
    {
        std::FILE* out = std::fopen(trace.c_str(), "wb");
        REQUIRE(out != nullptr);
        const std::string text = "{\"format\": \"ratelab-trace\", \"version\": 1, \"name\": \"" +
                                 name +
                                 "\", \"limit\": 4, \"window\": 10, \"requests\": "
                                 "[{\"tick\": 6}, {\"tick\": 7}]}";
        REQUIRE(std::fwrite(text.data(), 1, text.size(), out) == text.size());
        std::fclose(out);
    }
    const fs::path svg = dir / "figure.svg";
    const Run run =
        render("render \"" + trace.string() + "\" --view figure -o \"" + svg.string() + "\"");
    REQUIRE(run.status == 0);
    const QString text = QString::fromUtf8(bytes(svg));
    CHECK(text.contains(QChar(0x2026)));  // "…" where the name was cut
    CHECK(bytes(svg).size() < 2'000'000);
}

TEST_CASE("render: a PNG too large to draw is refused with the limit, not an empty image") {
    Scratch dir("huge-png");
    const Run run = render("render \"" + kTrace + "\" --view load --width 8000 --height 8000 " +
                           "--scale 4 -o \"" + (dir / "huge.png").string() + "\"");
    CHECK(run.status == 2);
    CHECK(run.err.find("a PNG of 32000 x 32000 device pixels is too large") != std::string::npos);
    CHECK(run.err.find("268435456 pixels") != std::string::npos);
    CHECK(!fs::exists(dir / "huge.png"));
    const Run svg = render("render \"" + kTrace + "\" --view load --width 8000 --height 8000 " +
                           "--scale 4 -o \"" + (dir / "huge.svg").string() + "\"");
    CHECK(svg.status == 0);
}

TEST_CASE("render: a sweep as a line over one axis and a heatmap over two") {
    Scratch dir("sweep");
    const fs::path line = dir / "line.png";
    REQUIRE(render("render \"" + kTrace + "\" --view sweep --vary limit=1..8 -o \"" +
                   line.string() + "\"")
                .status == 0);
    const QImage image(QString::fromStdString(line.string()));
    CHECK(image.width() == 900);
    CHECK(image.height() == 500);
    // The heatmap's cells are coloured, not the white of an empty plot.
    const fs::path heat = dir / "heat.svg";
    REQUIRE(render("render \"" + kTrace +
                   "\" --view sweep --vary limit=1..4 --vary window=5,10 --metric burst -o \"" +
                   heat.string() + "\"")
                .status == 0);
    const QString svg = QString::fromUtf8(bytes(heat));
    CHECK(svg.contains(QStringLiteral("Worst burst / L by L (limit) and W (window, ticks)")));
    CHECK(svg.contains(QStringLiteral("×2")));  // the boundary burst: 8 in 10 ticks at L = 4
}

TEST_CASE("render: a sweep of a bucket's capacity marks where its closed form stops rejecting") {
    Scratch dir("sweep-frontier");
    const fs::path out = dir / "capacity.svg";
    REQUIRE(render("render \"" + kTrace +
                   "\" --view sweep --vary token_bucket.capacity=1..8 -o \"" + out.string() + "\"")
                .status == 0);
    // Eight requests, a tick apart, at 2/5 a tick: 8 - 2/5 x 7 = 5.2 tokens, so 6.
    CHECK(QString::fromUtf8(bytes(out)).contains(QStringLiteral("capacity ≥ 6: none rejected")));
}

TEST_CASE("render: a sweep's bad options exit 2 with one line") {
    Scratch dir("sweep-bad");
    const std::string out = " -o \"" + (dir / "x.png").string() + "\"";
    const Run none = render("render \"" + kTrace + "\" --view sweep" + out);
    CHECK(none.status == 2);
    CHECK(none.err.find("one or two --vary axes, not 0") != std::string::npos);
    const Run three = render("render \"" + kTrace +
                             "\" --view sweep --vary limit=1..2 --vary window=1..2 "
                             "--vary token_bucket.capacity=1..2" +
                             out);
    CHECK(three.status == 2);
    const Run metric =
        render("render \"" + kTrace + "\" --view sweep --vary limit=1..3 --metric speed" + out);
    CHECK(metric.status == 2);
    CHECK(metric.err.find("unknown --metric \"speed\"") != std::string::npos);
    const Run backwards = render("render \"" + kTrace + "\" --view sweep --vary limit=5..1" + out);
    CHECK(backwards.status == 2);
    CHECK(backwards.err.find("--vary limit=5..1") != std::string::npos);
    const Run elsewhere = render("render \"" + kTrace + "\" --view load --vary limit=1..3" + out);
    CHECK(elsewhere.status == 2);
    CHECK(elsewhere.err.find("--vary and --metric are for --view sweep") != std::string::npos);
    CHECK(!fs::exists(dir / "x.png"));
}
