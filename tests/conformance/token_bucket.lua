-- The atomic token bucket of reference article 000, written for RateLab's conformance gate
-- from the article's description: one hash per key with the tokens and the time they were
-- counted at, refilled, tested and written back in one script. `now` comes in as an argument
-- (milliseconds), so a test drives the clock. The preset seed_redis_lua reproduces it.
local bucket = KEYS[1]
local size = tonumber(ARGV[1])        -- capacity, tokens
local per_second = tonumber(ARGV[2])  -- refill rate, tokens per second
local at = tonumber(ARGV[3])          -- now, milliseconds
local want = tonumber(ARGV[4])        -- cost, tokens
local saved = redis.call("HMGET", bucket, "tokens", "ts")
local level = tonumber(saved[1]) or size
local since = tonumber(saved[2]) or at
level = math.min(size, level + (at - since) / 1000 * per_second)
local ok = level >= want
if ok then level = level - want end
redis.call("HSET", bucket, "tokens", level, "ts", at)
redis.call("PEXPIRE", bucket, math.ceil(size / per_second * 1000))
local wait = 0
if not ok then wait = math.ceil((want - level) / per_second * 1000) end
return {ok and 1 or 0, math.floor(level), wait}
