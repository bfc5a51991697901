"""The conformance oracle for the preset nginx_limit_req: nginx itself (Debian 12's nginx
1.22.1), one process for all the traces of a run, its clock stepped by libfaketime.

nginx reads its millisecond clock (ngx_current_msec, CLOCK_MONOTONIC_COARSE) and its wall
clock once per event loop turn. Under libfaketime with FAKETIME_NO_CACHE both read the time
written in a file, so the gate writes a time, then wakes nginx with a connection: everything
nginx does in that turn, the limit_req lookup of a new request and the timers of delayed ones
alike, happens at exactly that millisecond. The clock never goes back.

Every trace gets a zone of its own (fresh state, no other trace's keys) and a location
/t<n> with its limit_req directive; a request's key is its `k` argument. For each request the
gate learns at once whether nginx answered (200: passed; the trace's status: refused) or held
it, from the "delaying request" line nginx logs before it returns. A held request's release is
the first clock step at which its response has come. The gate steps the clock to every
arrival and, besides, to one millisecond before and at each release ratelab-cli predicts: if
nginx released a request at another millisecond, it is seen at another step, so an agreement
on the release is an agreement to the millisecond, and a request still held after the last
step is a disagreement too. The probes choose only when nginx is looked at, never what it
does.
"""

import datetime
import os
import select
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from fractions import Fraction

FAKETIME_LIB = "/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1"
# /usr/sbin is not on every user's PATH.
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
EPOCH = datetime.datetime(2026, 1, 1)
# Between two traces: longer than any trace, so that nothing of one is pending in the next.
TRACE_GAP_MS = 600_000


def rate_directive(rate):
    """rate= as nginx writes it: n r/s, or n r/m for a rate that is a whole number per minute."""
    if rate.denominator == 1:
        return f"{rate.numerator}r/s"
    per_minute = rate * 60
    if per_minute.denominator != 1:
        raise ValueError(f"nginx cannot express a rate of {rate} r/s")
    return f"{per_minute.numerator}r/m"


def limit_req_directive(zone, params):
    parts = [f"limit_req zone={zone}"]
    if params["burst"]:
        parts.append(f"burst={params['burst']}")
    if params["nodelay"]:
        parts.append("nodelay")
    elif params["delay"]:
        parts.append(f"delay={params['delay']}")
    return " ".join(parts) + ";"


class Nginx:
    def __init__(self):
        self.folder = tempfile.mkdtemp(prefix="ratelab-nginx-")
        self.clock_file = os.path.join(self.folder, "clock")
        self.socket_path = os.path.join(self.folder, "sock")
        self.error_log = os.path.join(self.folder, "error.log")
        self.process = None
        self.cases = []
        self.next_case = 0
        self.now_ms = 0
        self.request_id = 0
        self.log = None
        self.version = subprocess.run([NGINX, "-v"], capture_output=True, text=True,
                                      check=False).stderr.strip().split("/")[-1]

    # -- the process --------------------------------------------------------------------------

    def prepare(self, cases):
        """Writes one zone and one location per case, and starts nginx."""
        self.stop()
        self.cases = cases
        self.next_case = 0
        www = os.path.join(self.folder, "www")
        os.makedirs(www, exist_ok=True)
        with open(os.path.join(www, "index.html"), "w", encoding="utf-8") as f:
            f.write("ok\n")
        zones, locations = [], []
        for n, (_seed, params, _tick_ms, _requests) in enumerate(cases):
            zones.append(f"  limit_req_zone k$arg_k zone=z{n}:32k "
                         f"rate={rate_directive(params['rate'])};")
            locations.append(f"    location /t{n} {{ {limit_req_directive(f'z{n}', params)} "
                             f"limit_req_status {params['status']}; try_files /index.html =404; }}")
        temp = os.path.join(self.folder, "temp")
        conf = "\n".join([
            # nginx keeps only TZ of its environment (ngx_set_environment): libfaketime reads
            # these variables at every clock read, so they must stay.
            "env LD_PRELOAD;", "env FAKETIME_TIMESTAMP_FILE;", "env FAKETIME_NO_CACHE;",
            "daemon off;", "master_process off;", "worker_processes 1;",
            f"pid {self.folder}/nginx.pid;", f"error_log {self.error_log} info;",
            "events { worker_connections 256; }",
            "http {",
            "  access_log off;",
            *[f"  {kind}_temp_path {temp};" for kind in
              ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")],
            # Refusals are logged at warn, delays at notice: both lines name the request.
            "  limit_req_log_level warn;",
            *zones,
            "  server {",
            f"    listen unix:{self.socket_path};",
            f"    root {www};",
            "    location = /poke { return 204; }",
            *locations,
            "  }",
            "}", ""])
        conf_path = os.path.join(self.folder, "nginx.conf")
        with open(conf_path, "w", encoding="utf-8") as f:
            f.write(conf)
        os.makedirs(temp, exist_ok=True)
        self.now_ms = 0
        self.set_clock(0)
        env = dict(os.environ, LD_PRELOAD=FAKETIME_LIB, FAKETIME_TIMESTAMP_FILE=self.clock_file,
                   FAKETIME_NO_CACHE="1")
        self.process = subprocess.Popen([NGINX, "-p", self.folder, "-c", conf_path], env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        for _ in range(100):
            if os.path.exists(self.socket_path):
                break
            if self.process.poll() is not None:
                raise RuntimeError("nginx did not start: " + self.process.stderr.read().decode())
            time.sleep(0.05)
        else:
            raise RuntimeError("nginx did not open its socket")
        self.log = open(self.error_log, encoding="utf-8", errors="replace")
        self.log.seek(0, os.SEEK_END)

    def stop(self):
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.process = None
        if self.log is not None:
            self.log.close()
            self.log = None

    def close(self):
        self.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    # -- the clock and the requests -----------------------------------------------------------

    def set_clock(self, ms):
        if ms < self.now_ms:
            raise RuntimeError("the fake clock would go back")
        self.now_ms = ms
        t = EPOCH + datetime.timedelta(milliseconds=ms)
        # libfaketime reads the fraction as a double: "08.619" can come out a nanosecond short,
        # which nginx's milliseconds (nsec / 1000000) turn into 08.618. Half a microsecond
        # more keeps every reading inside the intended millisecond.
        text = t.strftime("%Y-%m-%d %H:%M:%S") + f".{t.microsecond // 1000:03d}000500\n"
        staged = self.clock_file + ".new"
        with open(staged, "w", encoding="ascii") as f:
            f.write(text)
        os.replace(staged, self.clock_file)

    def connect(self, path):
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        conn.connect(self.socket_path)
        conn.sendall(f"GET {path} HTTP/1.0\r\nHost: ratelab\r\n\r\n".encode())
        return conn

    @staticmethod
    def status_of(conn, wait):
        ready, _, _ = select.select([conn], [], [], wait)
        if not ready:
            return None
        head = conn.recv(4096)
        if not head.startswith(b"HTTP/1.1 "):
            raise RuntimeError(f"nginx answered {head[:60]!r}")
        return int(head[9:12])

    def poke(self):
        """Wakes nginx at the current clock and waits until it has done that turn's work."""
        conn = self.connect("/poke")
        status = self.status_of(conn, 10)
        conn.close()
        if status != 204:
            raise RuntimeError(f"nginx answered the poke with {status}")

    def held(self, request_id):
        """Whether nginx logged that it delays the request `request_id`."""
        mark = f"&i={request_id} "
        for line in self.log:
            if "delaying request" in line and mark in line:
                return True
        return False

    def send(self, case, key, request_id):
        """The status nginx answered at once, or None for a request it holds."""
        conn = self.connect(f"/t{case}?k={key}&i={request_id}")
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            status = self.status_of(conn, 0.002)
            if status is not None:
                conn.close()
                return status, None
            if self.held(request_id):
                return None, conn
        raise RuntimeError(f"nginx neither answered nor held request {request_id}")

    # -- one trace ----------------------------------------------------------------------------

    def run(self, _preset, params, tick_ms, requests, predicted_release_ms=()):
        """Per request: accepted, and for accepted ones the release in ms from the trace's
        start (None when nginx still held it after the last step)."""
        case = self.next_case
        self.next_case += 1
        if self.cases[case][1] is not params:
            raise RuntimeError("the nginx oracle was prepared for other cases")
        base = self.now_ms + TRACE_GAP_MS
        arrivals = {}
        for i, r in enumerate(requests):
            arrivals.setdefault(r["tick"] * tick_ms, []).append(i)
        probes = set()
        for ms in predicted_release_ms:
            probes.update((ms - 1, ms))
        last = max(list(arrivals) + list(probes))
        # Past the longest delay nginx could set: then every held request must be out.
        probes.add(last + (params["burst"] + 1) * 1000 * 1000 // max(1, int(params["rate"] * 1000))
                   + 1)
        out = [None] * len(requests)
        held = {}
        for ms in sorted(set(arrivals) | {p for p in probes if p >= 0}):
            self.set_clock(base + ms)
            self.poke()  # its turn runs the timers due by now
            for i, conn in list(held.items()):
                status = self.status_of(conn, 0)
                if status is None:
                    continue
                conn.close()
                del held[i]
                if status != 200:
                    raise RuntimeError(f"nginx answered a held request with {status}")
                out[i]["release_ms"] = ms
            for i in arrivals.get(ms, []):
                self.request_id += 1
                status, conn = self.send(case, requests[i]["key"], self.request_id)
                if conn is not None:
                    out[i] = {"accepted": True, "release_ms": None}
                    held[i] = conn
                elif status == 200:
                    out[i] = {"accepted": True, "release_ms": ms}
                elif status == params["status"]:
                    out[i] = {"accepted": False, "release_ms": None}
                else:
                    raise RuntimeError(f"nginx answered {status}, not 200 or {params['status']}")
        for conn in held.values():
            conn.close()
        for answer in out:
            answer.update(retry=None, never=False)
        return out


def predicted_release_ms(decisions, tick_ms):
    """The releases ratelab-cli gives, in ms: where to look at nginx."""
    return [round(d["release"] * tick_ms) for d in decisions
            if d["accepted"] and d.get("release") is not None]


def release_agrees(ours, theirs, tick_ms):
    if theirs.get("release_ms", "none") == "none" or not ours["accepted"]:
        return True
    mine = ours.get("release")
    if mine is None or theirs["release_ms"] is None:
        return False
    # Releases are whole ms (nginx) or ns (x/time/rate); ratelab-cli writes a release that is
    # not a whole tick as a double, good to far below a nanosecond here.
    return abs(mine * tick_ms - float(theirs["release_ms"])) < 0.5e-6
