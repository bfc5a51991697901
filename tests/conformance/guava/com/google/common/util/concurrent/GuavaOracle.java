// The conformance oracle for the preset guava_smooth_bursty: Guava's own RateLimiter (Debian
// 12's libguava-java) on a simulated clock. It lives in Guava's package to hand the limiter a
// SleepingStopwatch (package-private in Guava) that reads the simulated time: microseconds since
// the key's limiter was made, as createFromSystemTimer() counts them.
//
// One case per input line: "PPS_NUM PPS_DEN BURST_NUM BURST_DEN TICK_MS N" then N triples
// "TICK COST KEY_INDEX". One answer per output line, per request: "A" (tryAcquire(cost, 0,
// MICROSECONDS) passed) or "R:<microseconds until nextFreeTicketMicros>".
package com.google.common.util.concurrent;

import java.io.BufferedReader;
import java.io.BufferedWriter;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.lang.reflect.Field;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

public final class GuavaOracle {
  private static long nowMs = 0;

  private static final class SimulatedStopwatch extends RateLimiter.SleepingStopwatch {
    private final long originMs = nowMs;

    @Override
    protected long readMicros() {
      return (nowMs - originMs) * 1000;
    }

    @Override
    protected void sleepMicrosUninterruptibly(long micros) {
      // tryAcquire with a zero timeout only sleeps 0; the simulated clock does not move.
    }
  }

  public static void main(String[] args) throws Exception {
    Field nextFree = SmoothRateLimiter.class.getDeclaredField("nextFreeTicketMicros");
    nextFree.setAccessible(true);
    BufferedReader in =
        new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
    BufferedWriter out =
        new BufferedWriter(new OutputStreamWriter(System.out, StandardCharsets.UTF_8));
    for (String line = in.readLine(); line != null; line = in.readLine()) {
      if (line.isBlank()) {
        continue;
      }
      String[] f = line.trim().split(" ");
      double permitsPerSecond = (double) Long.parseLong(f[0]) / (double) Long.parseLong(f[1]);
      double maxBurstSeconds = (double) Long.parseLong(f[2]) / (double) Long.parseLong(f[3]);
      long tickMs = Long.parseLong(f[4]);
      int n = Integer.parseInt(f[5]);
      Map<String, RateLimiter> limiters = new HashMap<>();
      StringBuilder answer = new StringBuilder();
      for (int i = 0; i < n; i++) {
        nowMs = Long.parseLong(f[6 + 3 * i]) * tickMs;
        int cost = Integer.parseInt(f[7 + 3 * i]);
        String key = f[8 + 3 * i];
        RateLimiter limiter = limiters.get(key);
        if (limiter == null) {
          SimulatedStopwatch stopwatch = new SimulatedStopwatch();
          if (maxBurstSeconds == 1.0) {
            limiter = RateLimiter.create(permitsPerSecond, stopwatch);
          } else {
            limiter = new SmoothRateLimiter.SmoothBursty(stopwatch, maxBurstSeconds);
            limiter.setRate(permitsPerSecond);
          }
          limiters.put(key, limiter);
        }
        long before = limiterMicros(limiter);
        if (limiter.tryAcquire(cost, 0, TimeUnit.MICROSECONDS)) {
          answer.append(i == 0 ? "" : " ").append('A');
        } else {
          long wait = Math.max(0, nextFree.getLong(limiter) - before);
          answer.append(i == 0 ? "" : " ").append("R:").append(wait);
        }
      }
      out.write(answer.toString());
      out.newLine();
      out.flush();
    }
  }

  private static long limiterMicros(RateLimiter limiter) throws Exception {
    Field stopwatch = RateLimiter.class.getDeclaredField("stopwatch");
    stopwatch.setAccessible(true);
    return ((RateLimiter.SleepingStopwatch) stopwatch.get(limiter)).readMicros();
  }
}
