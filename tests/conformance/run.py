#!/usr/bin/python3
"""The conformance gate's engine: every library preset against the real library.

For each preset, seeded random traces (several keys, gaps and bursts, costs above 1 where the
library takes a cost) with several parameter sets go through `ratelab-cli simulate --format
ndjson` and through the library itself on a simulated clock (Python's limits in this process,
Redis with the article's script over a socket, golang.org/x/time/rate, the npm packages and
Guava in their oracle programs). Decisions must agree everywhere, and so must the retry or reset values
the library reports. Prints a table; exits 1 with the first counterexample on a disagreement.

  run.py --cli build/app/ratelab-cli --go-oracle PATH --redis-socket PATH
         --guava-classpath PATH [--traces N] [--seed S] [--only PRESET,...] [--keep FOLDER]
"""

import argparse
import json
import math
import os
import random
import socket
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction

from nginx_oracle import Nginx, predicted_release_ms, release_agrees

HERE = os.path.dirname(os.path.abspath(__file__))


# ----------------------------------------------------------------------------------------------
# Traces and parameter sets


def random_requests(rng, keys, max_cost, tick_ms):
    """Bursts and gaps over up to `keys` keys; about 10 s to 2 min of simulated time."""
    requests = []
    tick = rng.randint(0, 3)
    # Gaps are drawn in milliseconds and turned into ticks, so that every tick length sees
    # windows and refills cross in its own way.
    mean_gap_ms = rng.choice([50, 200, 600, 1500])
    for _ in range(rng.randint(15, 120)):
        roll = rng.random()
        if roll < 0.35:
            gap_ms = 0
        elif roll < 0.9:
            gap_ms = rng.randint(1, 2 * mean_gap_ms)
        else:
            gap_ms = rng.randint(1000, 8000)
        tick += -(-gap_ms // tick_ms) if gap_ms else 0
        cost = 1 if rng.random() < 0.6 else rng.randint(1, max_cost)
        key = "" if keys == 1 else rng.choice(["", "alice", "bob"][:keys])
        requests.append({"tick": tick, "cost": cost, "key": key})
    return requests


def rational(value):
    return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"


RATES = [Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(3), Fraction(10), Fraction(1, 3),
         Fraction(7, 10), Fraction(5, 2), Fraction(40)]


def params_python_limits(rng):
    return {"amount": rng.randint(1, 6), "window": rng.randint(1, 5)}


def params_x_time_rate(rng):
    # Half AllowN (max_wait 0), half ReserveN waiting at most max_wait seconds.
    max_wait = rng.choice([Fraction(0), Fraction(0), Fraction(0), Fraction(1, 2), Fraction(1),
                           Fraction(3), Fraction(7, 3)])
    return {"limit": rng.choice(RATES), "burst": rng.randint(1, 6), "max_wait": max_wait}


def params_express(rng):
    return {"limit": rng.randint(1, 6), "window_ms": rng.choice([333, 1000, 1500, 2500, 60000])}


def params_flexible(rng):
    return {"points": rng.randint(1, 8), "duration": rng.randint(1, 4)}


def params_npm_limiter(rng):
    return {"bucket_size": rng.randint(1, 6), "tokens_per_interval": rng.randint(1, 5),
            "interval_ms": rng.choice([7, 250, 333, 1000, 60000])}


def params_guava(rng):
    return {"permits_per_second": rng.choice(RATES),
            "max_burst_seconds": rng.choice([Fraction(1), Fraction(1), Fraction(3), Fraction(1, 2),
                                             Fraction(5, 2)])}


# Rates nginx can be given (n r/s or n r/m): 30r/m, 90r/m, 20r/m, 42r/m, 150r/m, 7r/m.
NGINX_RATES = [Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(3), Fraction(10),
               Fraction(1, 3), Fraction(7, 10), Fraction(5, 2), Fraction(40), Fraction(7, 60)]


def params_nginx(rng):
    mode = rng.choice(["nodelay", "delay", "queue", "queue"])
    return {"rate": rng.choice(NGINX_RATES), "burst": rng.choice([0, 0, 1, 2, 3, 5, 8]),
            "nodelay": mode == "nodelay", "delay": rng.randint(1, 4) if mode == "delay" else 0,
            "status": rng.choice([503, 503, 429])}


def params_seed_lua(rng):
    return {"capacity": rng.randint(1, 8), "rate": rng.choice(RATES)}


def max_cost(preset, params):
    size = {"python_limits_fixed": "amount", "python_limits_moving": "amount",
            "x_time_rate": "burst", "rate_limiter_flexible": "points",
            "npm_limiter": "bucket_size", "seed_redis_lua": "capacity"}.get(preset)
    return params[size] + 2 if size else 4


# ----------------------------------------------------------------------------------------------
# ratelab-cli


def trace_document(preset, params, tick_ms, requests):
    lane_params = {k: (rational(v) if isinstance(v, Fraction) else v) for k, v in params.items()}
    return {"format": "ratelab-trace", "version": 2, "tick_ms": tick_ms, "limit": 4, "window": 10,
            "lanes": [{"algorithm": preset, "params": lane_params}], "requests": requests}


def as_fraction(value):
    if isinstance(value, str):
        return Fraction(value)
    return Fraction(value)


def ratelab_decisions(cli, folder, name, document):
    path = os.path.join(folder, name + ".json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(document, f)
    done = subprocess.run([cli, "simulate", path, "--format", "ndjson"], capture_output=True,
                          text=True, check=False)
    if done.returncode != 0:
        raise RuntimeError(f"ratelab-cli failed on {path}: {done.stderr.strip()}")
    decisions = []
    for line in done.stdout.splitlines():
        entry = json.loads(line)
        if entry.get("type") != "decision":
            continue
        retry = entry.get("retry_after")
        decisions.append({"accepted": entry["accepted"],
                          "retry": None if retry is None or retry == "never" else as_fraction(retry),
                          "never": retry == "never", "release": entry.get("release")})
    return decisions, path


# ----------------------------------------------------------------------------------------------
# Oracles: each returns, per request, {"accepted": bool, "retry": <the library's value in
# milliseconds, or None>, "never": bool, "unit_ms": the unit the library reports it in}. Values
# without a unit (float seconds) are compared within a microsecond; the rest in their unit.


class PythonLimits:
    """limits 2.8.0's MemoryStorage on a simulated time.time(), without its wall-clock sweep."""

    def __init__(self):
        import limits
        import limits.storage.memory as memory

        self.limits = limits
        self.now = 0.0

        class Clock:
            @staticmethod
            def time():
                return self.now

        class NoTimer:  # the 10 ms sweep runs on the wall clock; see python_limits_moving.cpp
            def __init__(self, *args, **kwargs):
                pass

            def start(self):
                pass

            def is_alive(self):
                return True

            def cancel(self):
                pass

        memory.time = Clock
        memory.threading = type("threading", (), {"Timer": NoTimer})
        self.version = limits.__version__

    def run(self, preset, params, tick_ms, requests):
        storage = self.limits.storage.MemoryStorage()
        item = self.limits.RateLimitItemPerSecond(params["amount"], params["window"])
        moving = preset == "python_limits_moving"
        strategy = (self.limits.strategies.MovingWindowRateLimiter if moving
                    else self.limits.strategies.FixedWindowRateLimiter)(storage)
        out = []
        for r in requests:
            self.now = r["tick"] * tick_ms / 1000
            accepted = strategy.hit(item, r["key"], cost=r["cost"])
            retry, never = None, False
            if not accepted:
                if moving:
                    reset, _ = strategy.get_window_stats(item, r["key"])
                    retry = max(0.0, reset - self.now) * 1000
                elif r["cost"] > params["amount"]:
                    never = True
                else:
                    key = item.key_for(r["key"])
                    retry = (storage.expirations[key] - self.now) * 1000
            out.append({"accepted": accepted, "retry": retry, "never": never})
        return out


class Redis:
    """redis-server running tests/conformance/token_bucket.lua with `now` passed in."""

    def __init__(self, socket_path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(socket_path)
        self.buffer = b""
        with open(os.path.join(HERE, "token_bucket.lua"), encoding="utf-8") as f:
            self.sha = self.call("SCRIPT", "LOAD", f.read())
        info = self.call("INFO", "server")
        self.version = next(line.split(":", 1)[1] for line in info.splitlines()
                            if line.startswith("redis_version:"))

    def send(self, *args):
        parts = [f"*{len(args)}\r\n".encode()]
        for a in args:
            data = a if isinstance(a, bytes) else str(a).encode()
            parts.append(b"$%d\r\n%s\r\n" % (len(data), data))
        self.sock.sendall(b"".join(parts))

    def line(self):
        while b"\r\n" not in self.buffer:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise RuntimeError("redis closed the connection")
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\r\n", 1)
        return line

    def reply(self):
        line = self.line()
        kind, rest = line[:1], line[1:]
        if kind == b"+":
            return rest.decode()
        if kind == b"-":
            raise RuntimeError("redis: " + rest.decode())
        if kind == b":":
            return int(rest)
        if kind == b"$":
            size = int(rest)
            if size < 0:
                return None
            while len(self.buffer) < size + 2:
                self.buffer += self.sock.recv(65536)
            data, self.buffer = self.buffer[:size], self.buffer[size + 2:]
            return data.decode()
        if kind == b"*":
            return [self.reply() for _ in range(int(rest))]
        raise RuntimeError(f"redis: unexpected reply {line!r}")

    def call(self, *args):
        self.send(*args)
        return self.reply()

    def run(self, _preset, params, tick_ms, requests):
        self.call("FLUSHDB")
        capacity, rate = params["capacity"], params["rate"]
        per_second = rate.numerator / rate.denominator
        # Redis expires a key on its own clock (now > expiry time); the script's clock is the
        # simulated one, so the expiry is replayed on it: the key goes once now > ts + ttl.
        ttl = math.ceil(capacity / per_second * 1000)
        last = {}
        out = []
        for r in requests:
            now = r["tick"] * tick_ms
            key = "rl:" + r["key"]
            if key in last and now > last[key] + ttl:
                self.call("DEL", key)
            last[key] = now
            allowed, _remaining, wait = self.call("EVALSHA", self.sha, 1, key, capacity,
                                                  repr(per_second), now, r["cost"])
            accepted = allowed == 1
            out.append({"accepted": accepted,
                        "retry": None if accepted or r["cost"] > capacity else Fraction(wait),
                        "never": not accepted and r["cost"] > capacity, "unit_ms": 1})
        return out


class LineOracle:
    """A program answering one JSON line per JSON case line (the Go and Node oracles)."""

    def __init__(self, argv, cwd=None):
        self.process = subprocess.Popen(argv, cwd=cwd, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)

    def ask(self, case):
        self.process.stdin.write(json.dumps(case) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError(f"oracle {self.process.args} stopped")
        return json.loads(line)

    def close(self):
        self.process.stdin.close()
        self.process.wait()


class GoRate:
    def __init__(self, binary):
        self.oracle = LineOracle([binary])

    def run(self, _preset, params, tick_ms, requests):
        limit = params["limit"]
        max_wait_ns = int(params["max_wait"] * 10**9)  # a time.Duration: whole ns, truncated
        answer = self.oracle.ask({"limit_num": limit.numerator, "limit_den": limit.denominator,
                                  "burst": params["burst"], "tick_ms": tick_ms,
                                  "max_wait_ns": max_wait_ns, "requests": requests})
        out = []
        for r, a in zip(requests, answer):
            entry = {"accepted": a["accepted"],
                     "retry": None if a["accepted"] or a["retry_ns"] < 0 else Fraction(a["retry_ns"], 10**6),
                     "never": not a["accepted"] and a["retry_ns"] < 0, "unit_ms": 1e-6}
            if a["accepted"]:  # released at arrival + delay, in ms
                entry["release_ms"] = r["tick"] * tick_ms + Fraction(a["delay_ns"], 10**6)
            out.append(entry)
        return out


class Node:
    def __init__(self):
        self.oracle = LineOracle(["node", os.path.join(HERE, "node_oracle.js")], cwd=HERE)

    def run(self, preset, params, tick_ms, requests):
        answer = self.oracle.ask({"preset": preset, "params": params, "tick_ms": tick_ms,
                                  "requests": requests})
        out = []
        for r, a in zip(requests, answer):
            retry, never = None, False
            if not a["accepted"]:
                if preset == "express_rate_limit":
                    retry = Fraction(a["retry"] * 1000)  # Retry-After seconds
                elif preset == "rate_limiter_flexible" and r["cost"] > params["points"]:
                    never = True
                elif preset == "npm_limiter" and a["retry"] < 0:
                    never = True
                else:
                    retry = Fraction(a["retry"])
            unit = 1000 if preset == "express_rate_limit" else 1
            out.append({"accepted": a["accepted"], "retry": retry, "never": never, "unit_ms": unit})
        return out


class Guava:
    """Guava's RateLimiter (the GuavaOracle class, in Guava's package) on a simulated clock."""

    def __init__(self, classpath):
        self.process = subprocess.Popen(
            ["java", "-cp", classpath, "com.google.common.util.concurrent.GuavaOracle"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def run(self, _preset, params, tick_ms, requests):
        rate, burst = params["permits_per_second"], params["max_burst_seconds"]
        keys = {}
        fields = [rate.numerator, rate.denominator, burst.numerator, burst.denominator, tick_ms,
                  len(requests)]
        for r in requests:
            fields += [r["tick"], r["cost"], keys.setdefault(r["key"], len(keys))]
        self.process.stdin.write(" ".join(map(str, fields)) + "\n")
        self.process.stdin.flush()
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("the Guava oracle stopped")
        out = []
        for answer in line.split():
            accepted = answer == "A"
            out.append({"accepted": accepted,
                        "retry": None if accepted else Fraction(int(answer[2:]), 1000),
                        "never": False, "unit_ms": 1e-3})
        return out

    def close(self):
        self.process.stdin.close()
        self.process.wait()


def npm_version(package):
    with open(os.path.join(HERE, "node_modules", package, "package.json"), encoding="utf-8") as f:
        return json.load(f)["version"]


def deb_version(package):
    done = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package],
                          capture_output=True, text=True, check=False)
    return done.stdout.strip() or "?"


# ----------------------------------------------------------------------------------------------


PRESETS = [
    # id, library, parameter sets, tick lengths (ms), whether costs go above 1
    ("python_limits_fixed", "limits (Python)", params_python_limits, [1000, 250, 100, 7], True),
    ("python_limits_moving", "limits (Python)", params_python_limits, [1000, 250, 100, 7], True),
    ("x_time_rate", "golang.org/x/time/rate", params_x_time_rate, [1, 7, 100, 1000], True),
    ("express_rate_limit", "express-rate-limit", params_express, [1, 10, 100, 250], False),
    ("rate_limiter_flexible", "rate-limiter-flexible", params_flexible, [1, 10, 100, 1000], True),
    ("npm_limiter", "limiter (npm)", params_npm_limiter, [1, 10, 100], True),
    ("seed_redis_lua", "redis + article 000 script", params_seed_lua, [1, 10, 100, 1000], True),
    ("guava_smooth_bursty", "Guava RateLimiter", params_guava, [1, 10, 100, 1000], True),
    ("nginx_limit_req", "nginx limit_req", params_nginx, [1, 7, 100, 1000], False),
]


def agree(ours, theirs, tick_ms):
    """Nothing when they agree, else what differs. ratelab-cli writes a retry that is not a
    whole number of ticks as a double, so retries are compared in the library's own unit:
    whole nanoseconds (x/time/rate), milliseconds, seconds (Retry-After), or within a
    microsecond where the library itself holds a float of seconds (Python's limits)."""
    if ours["accepted"] != theirs["accepted"]:
        return "decision"
    if ours["accepted"]:
        return None if release_agrees(ours, theirs, tick_ms) else "release"

    if theirs["never"] or ours["never"]:
        return None if theirs["never"] == ours["never"] else "retry never"
    if theirs["retry"] is None:
        return None
    mine_ms = float(ours["retry"] * tick_ms)
    unit = theirs.get("unit_ms")
    if unit is None:
        return None if abs(mine_ms - float(theirs["retry"])) < 1e-3 else "retry"
    mine = mine_ms / unit
    # A double's digits are good to about 1e-15 of its size: well under one unit.
    if abs(mine - round(mine)) > max(1e-6, abs(mine) * 1e-12) or \
            round(mine) != round(float(theirs["retry"]) / unit):
        return "retry"
    return None


def describe(value, ms_per_unit):
    """A decision in words; its retry is in units of `ms_per_unit` milliseconds."""
    if value["accepted"]:
        if value.get("release_ms") is not None:
            return f"accepted, released at {value['release_ms']} ms"
        if value.get("release") is not None:
            return f"accepted, released at {float(value['release'] * ms_per_unit):g} ms"
        return "accepted" if "release_ms" not in value else "accepted, still held at the end"
    if value["never"]:
        return "rejected, retry never"
    if value["retry"] is None:
        return "rejected"
    return f"rejected, retry {float(value['retry'] * ms_per_unit):g} ms"


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cli", required=True)
    parser.add_argument("--go-oracle", required=True)
    parser.add_argument("--redis-socket", required=True)
    parser.add_argument("--guava-classpath", required=True)
    parser.add_argument("--traces", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2126)
    parser.add_argument("--only", default="")
    parser.add_argument("--keep", default="", help="folder to keep the trace files in")
    args = parser.parse_args()

    only = {p for p in args.only.split(",") if p}
    python_limits = PythonLimits()
    redis = Redis(args.redis_socket)
    go = GoRate(args.go_oracle)
    node = Node()
    guava = Guava(args.guava_classpath)
    nginx = Nginx() if not only or "nginx_limit_req" in only else None
    oracles = {"python_limits_fixed": python_limits, "python_limits_moving": python_limits,
               "x_time_rate": go, "express_rate_limit": node, "rate_limiter_flexible": node,
               "npm_limiter": node, "seed_redis_lua": redis, "guava_smooth_bursty": guava,
               "nginx_limit_req": nginx}
    versions = {"python_limits_fixed": python_limits.version,
                "python_limits_moving": python_limits.version,
                "x_time_rate": deb_version("golang-golang-x-time-dev"),
                "express_rate_limit": npm_version("express-rate-limit"),
                "rate_limiter_flexible": npm_version("rate-limiter-flexible"),
                "npm_limiter": npm_version("limiter"),
                "seed_redis_lua": redis.version,
                "guava_smooth_bursty": deb_version("libguava-java"),
                "nginx_limit_req": deb_version("nginx")}
    folder = args.keep or tempfile.mkdtemp(prefix="ratelab-conformance-")
    os.makedirs(folder, exist_ok=True)
    rows = []
    failed = False
    for preset, library, draw_params, tick_lengths, costs in PRESETS:
        if only and preset not in only:
            continue
        cases = []
        for n in range(args.traces):
            seed = args.seed * 100_003 + n * 7919 + sum(map(ord, preset))
            rng = random.Random(seed)
            params = draw_params(rng)
            tick_ms = rng.choice(tick_lengths)
            keys = rng.choice([1, 1, 2, 3])
            requests = random_requests(rng, keys, max_cost(preset, params) if costs else 1, tick_ms)
            cases.append((seed, params, tick_ms, requests))

        def ours(case, preset=preset):
            seed, params, tick_ms, requests = case
            return ratelab_decisions(args.cli, folder, f"{preset}-{seed}",
                                     trace_document(preset, params, tick_ms, requests))

        with ThreadPoolExecutor(max_workers=2) as pool:
            answers = list(pool.map(ours, cases))
        disagreements = 0
        first = None
        oracle = oracles[preset]
        if hasattr(oracle, "prepare"):
            oracle.prepare(cases)
        for (seed, params, tick_ms, requests), (mine, path) in zip(cases, answers):
            if preset == "nginx_limit_req":
                # Where to look at nginx's held requests (see nginx_oracle.py).
                theirs = oracle.run(preset, params, tick_ms, requests,
                                    predicted_release_ms(mine, tick_ms))
            else:
                theirs = oracle.run(preset, params, tick_ms, requests)
            if len(mine) != len(theirs):
                raise RuntimeError(f"{path}: {len(mine)} decisions from ratelab-cli, "
                                   f"{len(theirs)} from the library")
            for i, (a, b) in enumerate(zip(mine, theirs)):
                what = agree(a, b, tick_ms)
                if what is None:
                    continue
                disagreements += 1
                if first is None:
                    r = requests[i]
                    first = (f"{preset}: {what} differs on request {i} (tick {r['tick']}, cost "
                             f"{r['cost']}, key {r['key']!r}) of trace seed {seed}\n"
                             f"  params {json.dumps({k: str(v) for k, v in params.items()})}, "
                             f"tick_ms {tick_ms}\n"
                             f"  ratelab-cli: {describe(a, tick_ms)}\n"
                             f"  {library}: {describe(b, 1)}\n"
                             f"  trace file: {path}")
                break  # one disagreement per trace is enough to count it
        rows.append((preset, library, versions[preset], len(cases), disagreements))
        if first:
            failed = True
            print(first, file=sys.stderr)
    go.oracle.close()
    node.oracle.close()
    guava.close()
    if nginx is not None:
        nginx.close()

    widths = [max(len(str(row[i])) for row in rows + [("preset", "library", "version", "traces",
                                                        "disagreements")]) for i in range(5)]
    header = ("preset", "library", "version", "traces", "disagreements")
    for row in [header] + rows:
        print("  ".join(str(cell).ljust(widths[i]) for i, cell in enumerate(row)))
    if not rows:
        print("no preset was checked", file=sys.stderr)
        return 1
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
