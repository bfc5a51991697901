// The five placements of a fleet's limiter state, each a loop over the trace in order that asks
// the lane's limiters (limiter.h): what each server sees when a request reaches it.
#include <deque>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "fleet_engine.h"
#include "ratelab/simulation.h"

namespace ratelab::detail {

namespace {

std::string server_text(int server) {
    return "server " + std::to_string(server);
}

/// Each server's local share for the fleet's current size. A new size means new shares, so the
/// servers start over with fresh limiters (a restart with the new configuration).
class LocalShares {
public:
    explicit LocalShares(const FleetPlan& plan) : plan_(plan) {}

    Limiter& server(int server, int size) {
        if (size != size_) {
            const Params shared = local_share_params(plan_.params, plan_.lane, size);
            const auto fresh = make_limiter(plan_.trace, shared, shared.lanes.front());
            limiters_.clear();
            for (int s = 0; s < size; ++s)
                limiters_.push_back(fresh->clone());
            size_ = size;
        }
        return *limiters_[static_cast<std::size_t>(server)];
    }
    void reset() {
        limiters_.clear();
        size_ = 0;
    }

private:
    const FleetPlan& plan_;
    std::vector<std::unique_ptr<Limiter>> limiters_;
    int size_ = 0;
};

/// Answers the requests that arrive while the store is down, by the outage's policy; nothing
/// for the others. A fallback starts with fresh local shares at each outage.
class OutageGate {
public:
    explicit OutageGate(const FleetPlan& plan) : plan_(plan), shares_(plan) {}

    std::optional<bool> decide(std::size_t index, std::string* why) {
        const std::optional<Outage>& outage = plan_.settings.outage;
        const Request& r = plan_.trace.requests[index];
        if (!outage || r.tick < outage->start || r.tick >= outage->end) {
            falling_back_ = false;
            return std::nullopt;
        }
        const std::string down = "the store is down [" + std::to_string(outage->start) + ", " +
                                 std::to_string(outage->end) + "): ";
        switch (outage->policy) {
            case OutagePolicy::fail_open:
                if (why != nullptr)
                    *why = down + "fail open, every request passes";
                return true;
            case OutagePolicy::fail_closed:
                if (why != nullptr)
                    *why = down + "fail closed, every request is rejected";
                return false;
            case OutagePolicy::fallback_local:
                break;
        }
        if (!falling_back_) {
            shares_.reset();
            falling_back_ = true;
        }
        const int server = plan_.routed[index];
        Limiter& local = shares_.server(server, plan_.size[index]);
        if (why != nullptr)
            *why = down + server_text(server) +
                   " falls back to its local share: " + local.check(r.key, r.tick, r.cost);
        return local.decide(r.key, r.tick, r.cost, plan_.trace.duration(index)).accepted;
    }

private:
    const FleetPlan& plan_;
    LocalShares shares_;
    bool falling_back_ = false;
};

/// The shape every mode shares: the outage first, then the mode's own decision.
template <class DecideOne>
ModeDecisions decide_all(const FleetPlan& plan, std::optional<std::size_t> explain, bool uses_store,
                         DecideOne decide_one) {
    ModeDecisions out;
    const std::size_t n = plan.trace.requests.size();
    out.accepted.assign(n, 0);
    OutageGate gate(plan);
    for (std::size_t i = 0; i < n; ++i) {
        if (i % kStretch == kStretch - 1)
            report_stretch(plan.control, kStretch);
        std::string* why = explain == i ? &out.why : nullptr;
        if (uses_store) {
            if (const auto gated = gate.decide(i, why)) {
                out.accepted[i] = *gated ? 1 : 0;
                ++out.during_outage;
                if (why != nullptr)
                    break;
                continue;
            }
            ++out.store_round_trips;
        }
        out.accepted[i] = decide_one(i, why) ? 1 : 0;
        if (why != nullptr)
            break;
    }
    return out;
}

ModeDecisions run_central(const FleetPlan& plan, std::optional<std::size_t> explain) {
    const auto store = make_limiter(plan.trace, plan.params, plan.lane);
    return decide_all(plan, explain, true, [&](std::size_t i, std::string* why) {
        const Request& r = plan.trace.requests[i];
        if (why != nullptr)
            *why = server_text(plan.routed[i]) +
                   " asks the store, atomically: " + store->check(r.key, r.tick, r.cost);
        return store->decide(r.key, r.tick, r.cost, plan.trace.duration(i)).accepted;
    });
}

// A request's charge is stamped with its own tick (the server sends its arrival time) and
// lands store_latency ticks later; charges land in trace order, so the ticks each key's state
// sees never go back. With lost updates, what lands is not the charge but the key's whole state
// as the server left it (what it read, plus its own charge), which replaces the store's: every
// charge that landed in between is lost.
ModeDecisions run_central_racy(const FleetPlan& plan, std::optional<std::size_t> explain) {
    const auto store = make_limiter(plan.trace, plan.params, plan.lane);
    const Tick latency = plan.settings.store_latency;
    const bool replaces = plan.settings.lost_updates;
    struct Write {
        std::size_t index;
        std::unique_ptr<Limiter> state;  // lost updates: the key's state the write carries
    };
    std::deque<Write> in_flight;                             // accepted, write not landed yet
    const auto blank = replaces ? store->clone() : nullptr;  // no key has a state yet
    // Limiters of writes that landed, to carry the next ones: each write sets its one key by
    // adopt(), so what a limiter holds for other keys never matters, and a trace needs only as
    // many as are ever in flight at once.
    std::vector<std::unique_ptr<Limiter>> spare;
    const auto& requests = plan.trace.requests;
    return decide_all(plan, explain, true, [&](std::size_t i, std::string* why) {
        const Request& r = requests[i];
        while (!in_flight.empty() && requests[in_flight.front().index].tick + latency <= r.tick) {
            const Write& landing = in_flight.front();
            const Request& from = requests[landing.index];
            if (landing.state) {
                store->adopt(from.key, *landing.state);
                spare.push_back(std::move(in_flight.front().state));
            } else {
                store->charge(from.key, from.tick, from.cost);
            }
            in_flight.pop_front();
        }
        if (why != nullptr)
            *why = server_text(plan.routed[i]) + " reads the store, " +
                   std::to_string(in_flight.size()) +
                   (replaces ? " write(s) still in flight, the last to land wins: "
                             : " charge(s) still in flight: ") +
                   store->check(r.key, r.tick, r.cost);
        if (!replaces) {
            const bool accepted = store->peek(r.key, r.tick, r.cost).accepted;
            if (accepted)
                in_flight.push_back(Write{i, nullptr});
            return accepted;
        }
        std::unique_ptr<Limiter> mine;
        if (spare.empty()) {
            mine = blank->clone();
        } else {
            mine = std::move(spare.back());
            spare.pop_back();
        }
        mine->adopt(r.key, *store);
        const bool accepted = mine->decide(r.key, r.tick, r.cost, plan.trace.duration(i)).accepted;
        if (accepted)
            in_flight.push_back(Write{i, std::move(mine)});
        else
            spare.push_back(std::move(mine));
        return accepted;
    });
}

ModeDecisions run_local_share(const FleetPlan& plan, std::optional<std::size_t> explain) {
    LocalShares shares(plan);
    return decide_all(plan, explain, false, [&](std::size_t i, std::string* why) {
        const Request& r = plan.trace.requests[i];
        const int server = plan.routed[i];
        Limiter& local = shares.server(server, plan.size[i]);
        if (why != nullptr)
            *why = server_text(server) + " alone, with 1/" + std::to_string(plan.size[i]) +
                   " of the limit: " + local.check(r.key, r.tick, r.cost);
        return local.decide(r.key, r.tick, r.cost, plan.trace.duration(i)).accepted;
    });
}

/// periodic_sync: the store holds every charge accepted before the last sync point that has
/// passed; a server's view of a key is the store's state of it as of that sync point (copied
/// on the server's first request for the key after it), plus the server's own charges since.
ModeDecisions run_periodic_sync(const FleetPlan& plan, std::optional<std::size_t> explain) {
    const auto store = make_limiter(plan.trace, plan.params, plan.lane);
    const auto& requests = plan.trace.requests;
    const std::size_t keys = plan.trace.keys.size();
    const Tick every = plan.settings.sync_every;
    std::vector<std::unique_ptr<Limiter>> views;
    std::vector<std::int64_t> synced;     // per server and key: the sync point copied, as S*q
    std::vector<std::size_t> since_sync;  // accepted since the store was last brought up to date
    std::int64_t period = 0;              // the store holds every charge before period * S
    return decide_all(plan, explain, true, [&](std::size_t i, std::string* why) {
        const Request& r = requests[i];
        const std::int64_t now_period = r.tick / every;
        if (now_period != period) {  // every charge waiting has a tick before this sync point
            for (const std::size_t j : since_sync)
                store->charge(requests[j].key, requests[j].tick, requests[j].cost);
            since_sync.clear();
            period = now_period;
        }
        const std::size_t server = plan.routed[i];
        while (views.size() <= server) {
            views.push_back(store->clone());
            synced.resize(views.size() * keys, -1);
        }
        Limiter& view = *views[server];
        std::int64_t& copied = synced[server * keys + r.key];
        if (copied != now_period) {
            view.adopt(r.key, *store);
            copied = now_period;
        }
        if (why != nullptr) {
            std::int64_t local = 0;
            for (const std::size_t j : since_sync)
                local += plan.routed[j] == server && requests[j].key == r.key;
            const Tick sync_point = now_period * every;
            *why = server_text(static_cast<int>(server)) +
                   (now_period == 0 ? std::string(", before the first sync")
                                    : ", store as of the sync at " + std::to_string(sync_point)) +
                   ", plus " + std::to_string(local) +
                   " accepted here since: " + view.check(r.key, r.tick, r.cost);
        }
        const bool accepted = view.decide(r.key, r.tick, r.cost, plan.trace.duration(i)).accepted;
        if (accepted)
            since_sync.push_back(i);
        return accepted;
    });
}

/// key_routed: one server holds a key's whole state at a time, so one limiter is enough; a key
/// that moves (a scale event) starts fresh at its new server.
ModeDecisions run_key_routed(const FleetPlan& plan, std::optional<std::size_t> explain) {
    const auto limiter = make_limiter(plan.trace, plan.params, plan.lane);
    std::vector<int> owner(plan.trace.keys.size(), -1);
    return decide_all(plan, explain, false, [&](std::size_t i, std::string* why) {
        const Request& r = plan.trace.requests[i];
        const int server = plan.hashed[i];
        const bool moved = owner[r.key] >= 0 && owner[r.key] != server;
        if (moved)
            limiter->forget(r.key);
        owner[r.key] = server;
        if (why != nullptr)
            *why = server_text(server) + " holds the key" +
                   (moved ? std::string(", moved here fresh") : std::string()) + ": " +
                   limiter->check(r.key, r.tick, r.cost);
        return limiter->decide(r.key, r.tick, r.cost, plan.trace.duration(i)).accepted;
    });
}

}  // namespace

ModeDecisions run_fleet_mode(const FleetPlan& plan, FleetMode mode,
                             std::optional<std::size_t> explain) {
    switch (mode) {
        case FleetMode::central:
            return run_central(plan, explain);
        case FleetMode::central_racy:
            return run_central_racy(plan, explain);
        case FleetMode::local_share:
            return run_local_share(plan, explain);
        case FleetMode::periodic_sync:
            return run_periodic_sync(plan, explain);
        case FleetMode::key_routed:
            return run_key_routed(plan, explain);
    }
    return {};
}

}  // namespace ratelab::detail
