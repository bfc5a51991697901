// The conformance oracle for the preset x_time_rate: golang.org/x/time/rate itself (Debian 12's
// golang-golang-x-time-dev), driven with explicit times. One JSON case per input line, one JSON
// answer per output line: per request, whether AllowN(t, cost) passed and, when it did not, the
// delay ReserveN(t, cost) would report at that moment (on a copy of the limiter, so that the
// real one is left as AllowN left it), in nanoseconds, or -1 when ReserveN fails.
// With max_wait_ns above 0 the preset's shaper: ReserveN(t, cost), cancelled with CancelAt(t)
// when its delay exceeds max_wait_ns; an accepted request reports its delay, a cancelled one
// the delay a ReserveN on a copy would then report, less max_wait_ns.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"time"

	"golang.org/x/time/rate"
)

type request struct {
	Tick int64  `json:"tick"`
	Cost int    `json:"cost"`
	Key  string `json:"key"`
}

type testCase struct {
	LimitNum int64     `json:"limit_num"`
	LimitDen int64     `json:"limit_den"`
	Burst    int       `json:"burst"`
	TickMs   int64     `json:"tick_ms"`
	MaxWait  int64     `json:"max_wait_ns"`
	Requests []request `json:"requests"`
}

type decision struct {
	Accepted bool  `json:"accepted"`
	RetryNs  int64 `json:"retry_ns"`
	DelayNs  int64 `json:"delay_ns"`
}

// probe is the delay ReserveN(t, cost) would report on a copy of lim, or -1 when it fails.
func probe(lim *rate.Limiter, limit rate.Limit, burst int, t time.Time, cost int) int64 {
	copied := rate.NewLimiter(limit, burst)
	*copied = *lim // an unlocked copy: this goroutine is its only user
	reservation := copied.ReserveN(t, cost)
	if !reservation.OK() {
		return -1
	}
	return int64(reservation.DelayFrom(t))
}

func run(c testCase) []decision {
	limit := rate.Limit(float64(c.LimitNum) / float64(c.LimitDen))
	limiters := map[string]*rate.Limiter{}
	start := time.Unix(1_700_000_000, 0)
	out := make([]decision, 0, len(c.Requests))
	for _, r := range c.Requests {
		lim, found := limiters[r.Key]
		if !found {
			lim = rate.NewLimiter(limit, c.Burst)
			limiters[r.Key] = lim
		}
		t := start.Add(time.Duration(r.Tick*c.TickMs) * time.Millisecond)
		if c.MaxWait > 0 {
			reservation := lim.ReserveN(t, r.Cost)
			if !reservation.OK() {
				out = append(out, decision{false, -1, 0})
				continue
			}
			delay := reservation.DelayFrom(t)
			if delay <= time.Duration(c.MaxWait) {
				out = append(out, decision{true, 0, int64(delay)})
				continue
			}
			reservation.CancelAt(t)
			retry := probe(lim, limit, c.Burst, t, r.Cost) - c.MaxWait
			if retry < 0 {
				retry = 0
			}
			out = append(out, decision{false, retry, 0})
			continue
		}
		if lim.AllowN(t, r.Cost) {
			out = append(out, decision{true, 0, 0})
			continue
		}
		out = append(out, decision{false, probe(lim, limit, c.Burst, t, r.Cost), 0})
	}
	return out
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<28)
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	for in.Scan() {
		var c testCase
		if err := json.Unmarshal(in.Bytes(), &c); err != nil {
			fmt.Fprintln(os.Stderr, "x_time_rate_oracle:", err)
			os.Exit(2)
		}
		answer, _ := json.Marshal(run(c))
		w.Write(answer)
		w.WriteString("\n")
		w.Flush() // the gate waits for each answer before it asks the next case
	}
}
