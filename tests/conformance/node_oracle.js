// The conformance oracle for the npm presets: express_rate_limit, rate_limiter_flexible and
// npm_limiter, each the real package (versions pinned by package-lock.json) on a faked clock.
// One JSON case per input line ({"preset", "params", "tick_ms", "requests"}), one JSON answer
// per output line: per request, whether it passed and the retry value the library reports
// (express-rate-limit: Retry-After seconds; rate-limiter-flexible: msBeforeNext;
// limiter: getWaitTime milliseconds, -1 where it throws).
"use strict";
const readline = require("node:readline");
const { MemoryStore } = require("express-rate-limit");
const { RateLimiterMemory } = require("rate-limiter-flexible");
const { TokenBucket } = require("limiter");

// The simulated clock. Date.now and performance.now read it; timers never fire, as no test
// waits for one (each library's timer only drops state its own checks already treat as gone).
let nowMs = 0;
Date.now = () => nowMs;
Object.defineProperty(globalThis, "performance", { value: { now: () => nowMs }, writable: true });
globalThis.setTimeout = () => ({ unref() {}, ref() {} });
globalThis.setInterval = () => ({ unref() {}, ref() {} });
globalThis.clearTimeout = () => {};
globalThis.clearInterval = () => {};

async function expressRateLimit(params, requests, tickMs) {
  const store = new MemoryStore();
  store.init({ windowMs: params.window_ms });
  const out = [];
  for (const r of requests) {
    nowMs = r.tick * tickMs;
    const { totalHits, resetTime } = await store.increment(r.key);
    const accepted = !(totalHits > params.limit);
    // getResetSeconds in the package's headers code.
    const retry = Math.max(0, Math.ceil((resetTime.getTime() - Date.now()) / 1e3));
    out.push({ accepted, retry: accepted ? null : retry });
  }
  return out;
}

async function rateLimiterFlexible(params, requests, tickMs) {
  const limiter = new RateLimiterMemory({ points: params.points, duration: params.duration });
  const out = [];
  for (const r of requests) {
    nowMs = r.tick * tickMs;
    try {
      await limiter.consume(r.key, r.cost);
      out.push({ accepted: true, retry: null });
    } catch (res) {
      if (!(res && typeof res.msBeforeNext === "number")) throw res;
      out.push({ accepted: false, retry: res.msBeforeNext });
    }
  }
  return out;
}

async function npmLimiter(params, requests, tickMs) {
  const buckets = new Map();
  const out = [];
  for (const r of requests) {
    nowMs = r.tick * tickMs;
    let bucket = buckets.get(r.key);
    if (!bucket) {
      bucket = new TokenBucket({
        bucketSize: params.bucket_size,
        tokensPerInterval: params.tokens_per_interval,
        interval: params.interval_ms,
      });
      buckets.set(r.key, bucket);
    }
    if (bucket.tryRemoveTokens(r.cost)) {
      out.push({ accepted: true, retry: null });
      continue;
    }
    let retry;
    try {
      retry = bucket.getWaitTime(r.cost);
    } catch (error) {
      if (!(error instanceof RangeError)) throw error;
      retry = -1;
    }
    out.push({ accepted: false, retry });
  }
  return out;
}

const oracles = {
  express_rate_limit: expressRateLimit,
  rate_limiter_flexible: rateLimiterFlexible,
  npm_limiter: npmLimiter,
};

async function main() {
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    const c = JSON.parse(line);
    const oracle = oracles[c.preset];
    if (!oracle) throw new Error(`no oracle for preset ${c.preset}`);
    process.stdout.write(JSON.stringify(await oracle(c.params, c.requests, c.tick_ms)) + "\n");
  }
}

main().catch((error) => {
  console.error("node_oracle:", error);
  process.exit(2);
});
