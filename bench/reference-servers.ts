// The reference servers of `npm run bench:api`, each started in its own process by bench/api.ts:
//   node bench/reference-servers.ts bare              node:http answering a small JSON
//   node bench/reference-servers.ts raw-tx <file>     node:http + better-sqlite3: per request one transaction of the
//                                                     writes our quote makes (claim the idempotency key, insert the
//                                                     quote, store the response): the floor cost of a durable write.
//   node bench/reference-servers.ts raw-tx-pg <url>   the same writes in one transaction through a `pg` pool of the
//                                                     API's size, as named prepared statements (as the API sends them)
//   node bench/reference-servers.ts same-work <url> <script.json>
//                                                     per request, the statements the API sent for a quote or a
//                                                     confirm (recorded by bench/same-work.ts), replayed in one
//                                                     transaction through the store's connections, fresh ids each
// Each listens on 127.0.0.1 on a free port and reports it to the parent over IPC: { port }.
import http from "node:http";
import { randomUUID } from "node:crypto";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import fs from "node:fs";
import { openDatabase } from "../server/store/open.ts";
import { replay, type SameWorkScript } from "./same-work.ts";

const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;
const QUOTE_LIFETIME_MS = 30 * 60 * 1000;

type Result = { status: number; json: string; headers?: Record<string, string> };
type Handler = (request: http.IncomingMessage, body: string) => Result | Promise<Result>;

interface QuoteBody {
  order_id: string;
  order_amount_cents: number;
  protection_program_id: string;
}

/** What both raw servers answer: the quote's fields a client reads. */
function quoteJson(id: string, input: QuoteBody, fee: number, now: number): string {
  return JSON.stringify({
    quoteId: id,
    status: "open",
    orderId: input.order_id,
    currency: "USD",
    feeCents: fee,
    expiresAt: new Date(now + QUOTE_LIFETIME_MS).toISOString(),
  });
}

const feeOf = (input: QuoteBody) => Math.max(100, Math.round(input.order_amount_cents * 0.03));

/** The quote row's values, in the order of both servers' INSERT. */
const quoteValues = (id: string, input: QuoteBody, fee: number, now: number) => [
  id,
  "mer_bench",
  "test",
  input.protection_program_id,
  input.order_id,
  "USD",
  input.order_amount_cents,
  fee,
  input.order_amount_cents,
  null,
  null,
  randomUUID(),
  now,
  now + QUOTE_LIFETIME_MS,
];

function bare(): Handler {
  const json = JSON.stringify({ ok: true });
  return () => ({ status: 200, json });
}

/** The real tables (the file is migrated by the parent); the same pragmas as server/store/sqlite.ts. */
function rawTransaction(filename: string): Handler {
  const db = new BetterSqlite3(filename);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  db.pragma("foreign_keys = ON");
  const claim = db.prepare(
    `INSERT INTO idempotency_records (merchant_id, mode, key_kind, key, fingerprint, status, headers, body, created_at, expires_at)
     VALUES (?, ?, 'publishable', ?, ?, 0, '', '', ?, ?)`,
  );
  const insertQuote = db.prepare(
    `INSERT INTO quotes (id, merchant_id, mode, program_id, order_id, currency, order_amount_cents, fee_cents,
       covered_amount_cents, customer_email_sealed, product_category, status, token_hash, created_at, expires_at, key_kind)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'open', ?, ?, ?, 'publishable')`,
  );
  const storeResponse = db.prepare(
    "UPDATE idempotency_records SET status = ?, headers = ?, body = ? WHERE merchant_id = ? AND mode = ? AND key_kind = 'publishable' AND key = ?",
  );
  const quoteOnce = db.transaction((key: string, input: QuoteBody) => {
    const now = Date.now();
    claim.run("mer_bench", "test", key, `POST /offers/quote ${key}`, now, now + IDEMPOTENCY_TTL_MS);
    const id = `qt_${randomUUID()}`;
    const fee = feeOf(input);
    insertQuote.run(...quoteValues(id, input, fee, now));
    const json = quoteJson(id, input, fee, now);
    storeResponse.run(200, "", json, "mer_bench", "test", key);
    return json;
  });
  return (request, body) => {
    const key = request.headers["idempotency-key"];
    if (typeof key !== "string") return { status: 400, json: '{"error":"idempotency key required"}' };
    return { status: 200, json: quoteOnce.immediate(key, JSON.parse(body)) };
  };
}

/** The same three writes in one PostgreSQL transaction, each a named prepared statement, on a pool of the API's size. */
function rawPostgresTransaction(url: string): Handler {
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const claim = {
    name: "bench-claim",
    text: `INSERT INTO idempotency_records (merchant_id, mode, key_kind, key, fingerprint, status, headers, body, created_at, expires_at)
     VALUES ($1, $2, 'publishable', $3, $4, 0, '', '', $5, $6)`,
  };
  const insertQuote = {
    name: "bench-quote",
    text: `INSERT INTO quotes (id, merchant_id, mode, program_id, order_id, currency, order_amount_cents, fee_cents,
       covered_amount_cents, customer_email_sealed, product_category, status, token_hash, created_at, expires_at, key_kind)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'open', $12, $13, $14, 'publishable')`,
  };
  const storeResponse = {
    name: "bench-store",
    text: "UPDATE idempotency_records SET status = $1, headers = $2, body = $3 WHERE merchant_id = $4 AND mode = $5 AND key_kind = 'publishable' AND key = $6",
  };
  return async (request, body) => {
    const key = request.headers["idempotency-key"];
    if (typeof key !== "string") return { status: 400, json: '{"error":"idempotency key required"}' };
    const input = JSON.parse(body) as QuoteBody;
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const now = Date.now();
      await client.query({
        ...claim,
        values: ["mer_bench", "test", key, `POST /offers/quote ${key}`, now, now + IDEMPOTENCY_TTL_MS],
      });
      const id = `qt_${randomUUID()}`;
      const fee = feeOf(input);
      await client.query({ ...insertQuote, values: quoteValues(id, input, fee, now) });
      const json = quoteJson(id, input, fee, now);
      await client.query({ ...storeResponse, values: [200, "", json, "mer_bench", "test", key] });
      await client.query("COMMIT");
      return { status: 200, json };
    } catch (error) {
      await client.query("ROLLBACK").catch(() => undefined);
      throw error;
    } finally {
      client.release();
    }
  };
}

/**
 * The same work as the API's quote and confirm (bench/same-work.ts). A quote answers the recorded quote with its id
 * and the replay's suffix; a confirm of that id replays the recorded confirm with the same suffix, so it finds the
 * replayed quote as the API's confirm finds the quote it consumes.
 */
function sameWork(url: string, scriptFile: string): Handler {
  const db = openDatabase(url);
  const script = JSON.parse(fs.readFileSync(scriptFile, "utf8")) as SameWorkScript;
  const runTag = randomUUID().slice(0, 8);
  let sequence = 0;
  return async (request, body) => {
    if (request.url?.endsWith("/offers/quote")) {
      const suffix = `-${runTag}-${++sequence}`;
      await replay(db, script.quote, suffix);
      return {
        status: script.quote.status,
        json: script.quote.body.replaceAll(script.quoteId, script.quoteId + suffix),
        headers: { "x-service-quote-token": script.quoteToken },
      };
    }
    const { quoteId } = JSON.parse(body) as { quoteId: string };
    await replay(db, script.confirm, quoteId.slice(script.quoteId.length));
    return { status: script.confirm.status, json: script.confirm.body };
  };
}

const [kind, target, scriptFile] = process.argv.slice(2);
const handle =
  kind === "bare"
    ? bare()
    : kind === "raw-tx" && target
      ? rawTransaction(target)
      : kind === "raw-tx-pg" && target
        ? rawPostgresTransaction(target)
        : kind === "same-work" && target && scriptFile
          ? sameWork(target, scriptFile)
          : undefined;
if (!handle) {
  console.error(
    "usage: node bench/reference-servers.ts bare | raw-tx <sqlite file> | raw-tx-pg <postgres url> | same-work <url> <script>",
  );
  process.exit(2);
}

const server = http.createServer((request, response) => {
  const chunks: Buffer[] = [];
  request.on("data", (chunk: Buffer) => chunks.push(chunk));
  request.on("end", async () => {
    let result: Result;
    try {
      result = await handle(request, Buffer.concat(chunks).toString("utf8"));
    } catch (error) {
      result = { status: 500, json: JSON.stringify({ error: String(error) }) };
    }
    response.writeHead(result.status, {
      ...result.headers,
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(result.json),
    });
    response.end(result.json);
  });
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  process.send?.({ port: typeof address === "object" && address ? address.port : 0 });
});
process.on("SIGTERM", () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
