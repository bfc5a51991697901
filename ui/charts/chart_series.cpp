#include "charts/chart_series.h"

#include <QTimer>
#include <thread>
#include <utility>

#include "charts/chart_specs.h"

namespace ratelab::ui {
namespace {

/// Whether letting go of `series` takes long enough to be done on a thread: handing a gigabyte
/// back to the kernel holds whatever thread does it for 35-80 ms here.
bool bigSeries(const ResultSeries& series) {
    constexpr std::size_t kBig = 1'000'000;
    std::size_t points = 0;
    for (const AlgorithmSeries& s : series.algorithms)
        points += s.accepted.ticks.size() + s.load.ticks.size() + s.level.vertices.size();
    return points > kBig;
}

}  // namespace

/// Series computed on a thread of their own: what they are of, and what came of it. A job with
/// no result only lets go of the series it holds.
struct ChartSeries::Job {
    std::shared_ptr<const SimulationResult> result;
    SeriesOptions options;
    RunControl control;
    std::shared_ptr<const ResultSeries> series;
    QString error;
    std::thread thread;
    bool started = false;

    void run() {
        if (!result) {
            series.reset();
            return;
        }
        try {
            series = std::make_shared<const ResultSeries>(compute_series(*result, options));
        } catch (const SimulationCancelled&) {
            // No longer wanted: nobody looks at it.
        } catch (const std::exception& failure) {
            error = QString::fromLocal8Bit(failure.what());
        }
    }
};

ChartSeries::ChartSeries(QObject* parent) : QObject(parent) {}

ChartSeries::~ChartSeries() {
    // The queued calls back must not outlive this object.
    drop();
    for (const std::shared_ptr<Job>& job : retired_) {
        if (job->thread.joinable())
            job->thread.join();
    }
}

void ChartSeries::drop() {
    release(std::move(series_));
    error_.clear();
    if (job_ && job_->started) {
        job_->control.stop = true;
        retired_.push_back(std::move(job_));
    }
    job_.reset();  // one not started yet never starts
}

std::shared_ptr<const ResultSeries> ChartSeries::get(
    const std::shared_ptr<const SimulationResult>& result, const std::vector<KeyId>& keys) {
    if (series_ || job_ || !error_.isEmpty() || !result)
        return series_;
    if (result->trace->requests.size() < kBackgroundRequests) {
        series_ = std::make_shared<const ResultSeries>(
            compute_series(*result, chartSeriesOptions(*result, keys)));
        return series_;
    }
    auto job = std::make_shared<Job>();
    job->result = result;
    job->options = chartSeriesOptions(*result, keys);
    job->options.control = &job->control;
    // One core is left to the window, which stays in use meanwhile.
    static const unsigned cores = std::thread::hardware_concurrency();
    job->options.threads = cores > 1 ? cores - 1 : 1;
    startSoon(job);
    job_ = std::move(job);
    return series_;
}

std::shared_ptr<const ResultSeries> ChartSeries::wait(
    const std::shared_ptr<const SimulationResult>& result, const std::vector<KeyId>& keys) {
    if (series_ || !result)
        return series_;
    // Whoever waits for computed() hears of these series all the same, once the caller is done.
    QMetaObject::invokeMethod(this, &ChartSeries::computed, Qt::QueuedConnection);
    if (job_ && job_->started) {
        job_->thread.join();
        series_ = job_->series;
        error_ = job_->error;
        // Its call back finds it retired and only lets it go.
        retired_.push_back(std::move(job_));
    }
    job_.reset();  // one not started yet: computed here instead
    if (!series_) {
        series_ = std::make_shared<const ResultSeries>(
            compute_series(*result, chartSeriesOptions(*result, keys)));
        error_.clear();
    }
    return series_;
}

void ChartSeries::startSoon(const std::shared_ptr<Job>& job) {
    QTimer::singleShot(kStartDelayMs, this, [this, later = std::weak_ptr<Job>(job)] {
        // Gone, or dropped before it started: nothing to do.
        const std::shared_ptr<Job> due = later.lock();
        if (due && !due->started && (due == job_ || !due->result))
            start(due);
    });
}

void ChartSeries::start(const std::shared_ptr<Job>& job) {
    job->started = true;
    job->thread = std::thread([this, job] {
        job->run();
        QMetaObject::invokeMethod(
            this, [this, job] { finished(job); }, Qt::QueuedConnection);
    });
}

void ChartSeries::finished(const std::shared_ptr<Job>& job) {
    if (job->thread.joinable())
        job->thread.join();
    std::erase(retired_, job);
    if (job != job_) {
        // No longer wanted, or already taken by wait().
        release(std::move(job->series));
        return;
    }
    job_.reset();
    series_ = std::move(job->series);
    error_ = job->error;
    Q_EMIT computed();
}

void ChartSeries::release(std::shared_ptr<const ResultSeries> series) {
    if (!series || series.use_count() > 1 || !bigSeries(*series))
        return;
    auto job = std::make_shared<Job>();
    job->series = std::move(series);
    startSoon(job);
    retired_.push_back(std::move(job));
}

}  // namespace ratelab::ui
