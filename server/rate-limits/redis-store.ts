import { Redis, type RedisOptions } from "ioredis";
import { decide, schedule } from "./gcra.ts";
import type { LimitStore } from "./store.ts";

// One Lua script per decision: it reads every key of the decision, applies GCRA (gcra.ts, same arithmetic in the
// same order) and writes all keys only if all admit. Redis runs a script atomically, so a decision over several
// keys is atomic and every API instance sharing the Redis shares the counters. The script returns the states it
// read; `decide` recomputes the outcome from them for the headers. Time is the caller's clock (`now`), so an
// injected test clock drives Redis exactly like the memory store (instances' clocks are assumed NTP-synchronised).
// A key outlives its TAT by KEY_EXPIRY_MARGIN_MS of Redis's own time: harmless (a TAT in the past counts as none), and
// it keeps the decision on the caller's clock when that clock runs behind Redis's (clock skew; a test's frozen clock).
const KEY_EXPIRY_MARGIN_MS = 10_000;
const DECIDE_SCRIPT = `
local now = tonumber(ARGV[1])
local n = #KEYS
local read = {}
local nexts = {}
local admitted = 1
for i = 1, n do
  local interval = tonumber(ARGV[2 * i])
  local window = tonumber(ARGV[2 * i + 1])
  local stored = redis.call('GET', KEYS[i])
  local base = now
  read[i] = ''
  if stored then
    read[i] = stored
    local tat = tonumber(stored)
    if tat > now then base = tat end
  end
  nexts[i] = base + interval
  if now < nexts[i] - window then admitted = 0 end
end
if admitted == 1 then
  for i = 1, n do
    redis.call('SET', KEYS[i], string.format('%.17g', nexts[i]), 'PX', math.ceil(nexts[i] - now) + ${KEY_EXPIRY_MARGIN_MS})
  end
end
read[n + 1] = admitted
return read
`;

const READ_SCRIPT = `
local out = {}
for i = 1, #KEYS do out[i] = redis.call('GET', KEYS[i]) or '' end
return out
`;

type ScriptedRedis = Redis & {
  limiterDecide(numberOfKeys: number, ...keysAndArgs: (string | number)[]): Promise<(string | number)[]>;
  limiterRead(numberOfKeys: number, ...keys: string[]): Promise<string[]>;
};

export interface RedisStoreOptions {
  url: string;
  /** Prepended to every key (tests use a random one and delete it after). */
  prefix?: string;
  /** How long a decision waits for the first connection before the caller falls back (ms). */
  connectWaitMs?: number;
  /** Per-command timeout (ms; REDIS_COMMAND_TIMEOUT_MS): a Redis that does not answer in time has failed. */
  commandTimeoutMs?: number;
  onError?: (error: Error) => void;
}

class RedisUnavailableError extends Error {
  constructor(message = "Redis is not connected") {
    super(message);
    this.name = "RedisUnavailableError";
  }
}

/** Parses a stored TAT ('' = no key). */
const parseTat = (value: string | number) => (value === "" ? undefined : Number(value));

/** How long a command may take before it has failed (REDIS_COMMAND_TIMEOUT_MS): a healthy Redis answers in < 1 ms. */
export const DEFAULT_COMMAND_TIMEOUT_MS = 100;

/**
 * Limiter state in Redis. Every way Redis can fail ends a command quickly, and the breaker (breaker.ts) turns repeated
 * failures into decisions in memory that do not ask Redis at all:
 * - down or reconnecting: commands are never queued (`enableOfflineQueue: false`) nor retried
 *   (`maxRetriesPerRequest: 0`): a decision fails at once with RedisUnavailableError; ioredis keeps reconnecting in
 *   the background. Only the first connection is waited for (up to connectWaitMs).
 * - connected but not answering (a stopped process, a network black hole: the socket stays open): each command fails
 *   after commandTimeoutMs. It stays sent, so when Redis answers again its script may still run (its request was
 *   decided in memory, so it counts twice: a few requests at most, those sent before the breaker opened).
 * - a connection that drops with commands unanswered: they are not sent again on reconnect
 *   (`autoResendUnfulfilledCommands: false`): their requests were long decided in memory.
 */
export function createRedisStore(options: RedisStoreOptions): LimitStore & { client: Redis; prefix: string } {
  const prefix = options.prefix ?? "ratelimit:";
  const redisOptions: RedisOptions = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1_000,
    commandTimeout: options.commandTimeoutMs ?? DEFAULT_COMMAND_TIMEOUT_MS,
    autoResendUnfulfilledCommands: false,
    retryStrategy: (times) => Math.min(times * 200, 2_000),
  };
  const client = new Redis(options.url, redisOptions) as ScriptedRedis;
  client.defineCommand("limiterDecide", { lua: DECIDE_SCRIPT });
  client.defineCommand("limiterRead", { lua: READ_SCRIPT });
  let failedOnce = false;
  let firstOutcome: () => void = () => {};
  const firstConnection = new Promise<void>((resolve) => (firstOutcome = resolve));
  client.once("ready", () => firstOutcome());
  client.on("error", (error: Error) => {
    failedOnce = true;
    firstOutcome();
    options.onError?.(error);
  });

  async function connected() {
    if (client.status === "ready") return;
    if (!failedOnce && client.status !== "end")
      await Promise.race([firstConnection, sleep(options.connectWaitMs ?? 1_000)]);
    if ((client.status as string) !== "ready")
      throw new RedisUnavailableError(`Redis is not connected (${client.status})`);
  }

  const fullKeys = (keys: readonly string[]) => keys.map((key) => prefix + key);

  return {
    client,
    prefix,
    async decide(keys, rates, now) {
      await connected();
      const args = rates.flatMap((rate) => {
        const { interval, window } = schedule(rate);
        return [interval, window];
      });
      const reply = await client.limiterDecide(keys.length, ...fullKeys(keys), now, ...args);
      const decision = decide(reply.slice(0, keys.length).map(parseTat), now, [...rates]);
      // The script's verdict is the one that was stored; the recomputation only supplies the figures.
      return { ...decision, admitted: Number(reply[keys.length]) === 1 };
    },
    async states(keys, now) {
      await connected();
      const reply = await client.limiterRead(keys.length, ...fullKeys(keys));
      return reply.map(parseTat).map((tat) => (tat === undefined || tat <= now ? undefined : tat));
    },
    async ping() {
      await connected();
      await client.ping();
    },
    async close() {
      client.disconnect();
    },
  };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());
