// The same-work reference of `npm run bench:api`: the statements a quote and a confirm send, recorded from the API
// itself (so they follow the code), then replayed per request in one transaction with fresh ids, without HTTP
// framework, validation or crypto. What the API costs above it is ours.
//
// Recording: the API runs in this process on a Database that notes every call (all/get/run/runAtCommit, inside a
// transaction or not, and which calls were in flight together: what the driver pipelines), for three quote + confirm
// pairs. The second pair is the script; the values that differ in the third (ids, keys, hashes, timestamps) are the
// per-request ones, replaced by fresh values when replaying.
//
// Replay (bench/reference-servers.ts same-work): the script's statements through the store's own connections
// (server/store/open.ts: the same pragmas, pool, pipelining and checkpointer as the API), in one transaction per
// request; statements the API had in flight together are sent together.
import { randomBytes } from "node:crypto";
import pino from "pino";
import type { Database, Queryable, SqlValue, TransactionOptions } from "../server/store/database.ts";
import { openDatabase } from "../server/store/open.ts";
import { createProtectionApi } from "../server/api.ts";
import { cryptoRandom } from "../server/domain/ids.ts";
import type { NewMerchant } from "../server/domain/merchants.ts";
import { confirmBody, mutationHeaders, openQuote, quoteBody, QUOTE_TOKEN_HEADER } from "./api-requests.ts";

type Method = "all" | "get" | "run" | "runAtCommit";

interface Statement {
  method: Method;
  sql: string;
  params: SqlValue[];
  /** Sent inside one of the API's transactions (the replay puts every statement in its one transaction). */
  inTransaction: boolean;
  /** Statements with the same batch number were in flight together. */
  batch: number;
}

/** One request's statements and answer, as the API sent them. */
export interface RequestScript {
  recordedAt: number;
  statements: Statement[];
  /** How many transactions the API opened for the request. */
  transactions: number;
  options?: TransactionOptions;
  /** Parameter values that are the request's own (they differed in the next request): replaced when replaying. */
  varying: SqlValue[];
  status: number;
  body: string;
}

export interface SameWorkScript {
  quote: RequestScript;
  confirm: RequestScript;
  /** The recorded quote's id and token: a replayed quote answers them with its own suffix. */
  quoteId: string;
  quoteToken: string;
}

/** A Database that records each call of the request under way: `take()` returns and resets the record. */
function recordingDatabase(db: Database) {
  let statements: Statement[] = [];
  let transactions = 0;
  let options: TransactionOptions | undefined;
  let inFlight = 0;
  let batch = 0;
  const recorded = (on: Queryable, inTransaction: boolean): Queryable => {
    const call =
      (method: Method) =>
      <T>(sql: string, params: SqlValue[] = []): Promise<T> => {
        if (inFlight === 0) batch += 1;
        statements.push({ method, sql, params: [...params], inTransaction, batch });
        inFlight += 1;
        return (on[method](sql, params) as Promise<T>).finally(() => (inFlight -= 1));
      };
    return {
      dialect: on.dialect,
      all: call("all"),
      get: call("get"),
      run: call("run"),
      runAtCommit: call("runAtCommit"),
    };
  };
  const recording: Database = {
    ...recorded(db, false),
    transaction(work, transactionOptions) {
      transactions += 1;
      options ??= transactionOptions;
      return db.transaction((tx) => work(recorded(tx, true)), transactionOptions);
    },
    close: () => db.close(),
  };
  return {
    db: recording,
    take() {
      const taken = { statements, transactions, options };
      statements = [];
      transactions = 0;
      options = undefined;
      return taken;
    },
  };
}

/** Runs three quote + confirm pairs through the API on `url` (seeded with `merchant`) and returns the script. */
export async function recordSameWork(url: string, merchant: NewMerchant): Promise<SameWorkScript> {
  const recorder = recordingDatabase(openDatabase(url));
  const services = {
    clock: Date.now,
    random: cryptoRandom,
    settings: { companyName: "Bench Protection Ltd", portalUrl: "https://portal.example.test" },
  };
  const api = createProtectionApi({
    db: recorder.db,
    services,
    encryptionKey: randomBytes(32),
    logger: pino({ level: "silent" }),
  });
  const send = async (path: string, kind: "q" | "c", body: string) => {
    recorder.take();
    const recordedAt = Date.now();
    const response = await api.fetch(
      new Request(`http://bench.local/api/v1/offers/${path}`, {
        method: "POST",
        headers: mutationHeaders(merchant, kind),
        body,
      }),
    );
    const text = await response.text();
    if (response.status !== 200) throw new Error(`recording: ${path} answered ${response.status} ${text}`);
    return { recordedAt, status: response.status, body: text, headers: response.headers, ...recorder.take() };
  };
  try {
    const pairs = [];
    for (let i = 0; i < 3; i += 1) {
      const quote = await send("quote", "q", quoteBody(merchant));
      const open = openQuote(quote.body, quote.headers.get(QUOTE_TOKEN_HEADER) ?? "");
      const confirm = await send("confirm", "c", confirmBody(open));
      pairs.push({ quote, confirm, open });
    }
    // The first pair may include one-time work (a statement prepared, a cache filled): the second is the script.
    const [, script, next] = pairs;
    return {
      quote: requestScript(script.quote, next.quote),
      confirm: requestScript(script.confirm, next.confirm),
      quoteId: script.open.quoteId,
      quoteToken: script.open.token,
    };
  } finally {
    await recorder.db.close();
  }
}

type Recorded = Omit<RequestScript, "varying"> & { headers: Headers };

/** `recorded` with the values that differ in `next`, the same request made again; both must send the same SQL. */
function requestScript({ headers: _headers, ...recorded }: Recorded, next: Recorded): RequestScript {
  const sameShape =
    recorded.statements.length === next.statements.length &&
    recorded.statements.every((statement, i) => statement.sql === next.statements[i].sql);
  if (!sameShape) throw new Error("recording: two identical requests sent different statements");
  const varying = new Set<SqlValue>();
  recorded.statements.forEach((statement, i) =>
    statement.params.forEach((value, j) => {
      if (value !== next.statements[i].params[j]) varying.add(value);
    }),
  );
  return { ...recorded, varying: [...varying] };
}

/** Timestamps move with the clock; other varying numbers keep their recorded value. */
const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Replays `script` on `db` in one transaction, with each varying value made fresh: strings get `suffix` (the same
 * suffix for a quote and the confirm that consumes it, so the confirm finds the replayed quote), timestamps move to now.
 */
export async function replay(db: Database, script: RequestScript, suffix: string): Promise<void> {
  const varying = new Set(script.varying);
  const shift = Date.now() - script.recordedAt;
  const fresh = (value: SqlValue): SqlValue => {
    if (!varying.has(value)) return value;
    if (typeof value === "string") return value + suffix;
    if (typeof value === "number" && Math.abs(value - script.recordedAt) < DAY_MS) return value + shift;
    return value;
  };
  const batches = new Map<number, Statement[]>();
  for (const statement of script.statements)
    batches.set(statement.batch, [...(batches.get(statement.batch) ?? []), statement]);
  await db.transaction(async (tx) => {
    for (const batch of batches.values())
      await Promise.all(batch.map((statement) => tx[statement.method](statement.sql, statement.params.map(fresh))));
  }, script.options);
}

/** One line per route: how many statements, round trips (batches) and transactions the API used. */
export function describeScript(script: SameWorkScript): string {
  const line = (route: string, { statements, transactions }: RequestScript) => {
    const outside = statements.filter((statement) => !statement.inTransaction).length;
    const batches = new Set(statements.map((statement) => statement.batch)).size;
    return `${route}: ${statements.length} statements in ${batches} batches (${outside} outside a transaction; the API opened ${transactions} transaction${transactions === 1 ? "" : "s"})`;
  };
  return `same-work script, recorded from the API: ${line("quote", script.quote)}; ${line("confirm", script.confirm)}`;
}
