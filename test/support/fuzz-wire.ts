import http from "node:http";
import { Writable } from "node:stream";
import pino from "pino";
import type { Database } from "../../server/store/database.ts";

// The fuzzer's side of the wire: raw HTTP requests (with a body that may be chunked or shorter than its
// Content-Length), the server's own log read back per request, and row counts in one query.

export interface WireRequest {
  method: string;
  /** Path and query exactly as on the request line. */
  target: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** length: Content-Length; chunked: Transfer-Encoding; short: Content-Length beyond the bytes sent, then half-close. */
  transport: "length" | "chunked" | "short";
}

export type WireResponse = { status: number; headers: http.IncomingHttpHeaders; text: string } | { failed: string };

const ANSWER_TIMEOUT_MS = 10_000;

/**
 * Sends each request on a connection of its own, so that no request is answered on a connection an earlier one
 * spoiled. It asks the server to keep the connection (so the server never closes first, with a refused body still
 * unread), and closes it itself once the answer is in.
 */
export function wireClient(baseUrl: string) {
  const { hostname, port } = new URL(baseUrl);
  function send(request: WireRequest): Promise<WireResponse> {
    return new Promise((resolve) => {
      const body = request.body ?? Buffer.alloc(0);
      const short = request.transport === "short" && body.length > 0;
      const headers: Record<string, string> = { ...request.headers, Connection: "keep-alive" };
      if (request.transport === "chunked") headers["Transfer-Encoding"] = "chunked";
      else if (request.body) headers["Content-Length"] = String(body.length + (short ? 1 + (body.length % 50) : 0));
      const outgoing = http.request({
        host: hostname,
        port,
        method: request.method,
        path: request.target,
        headers,
        agent: false,
      });
      outgoing.setTimeout(ANSWER_TIMEOUT_MS, () =>
        outgoing.destroy(new Error(`no answer within ${ANSWER_TIMEOUT_MS} ms`)),
      );
      outgoing.on("error", (error) => resolve({ failed: error.message }));
      outgoing.on("response", (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on("data", (chunk: Buffer) => chunks.push(chunk));
        incoming.on("error", (error) => resolve({ failed: error.message }));
        incoming.on("end", () => {
          resolve({
            status: incoming.statusCode!,
            headers: incoming.headers,
            text: Buffer.concat(chunks).toString("utf8"),
          });
          outgoing.destroy();
        });
      });
      if (short) {
        outgoing.flushHeaders();
        // The client stops sending (FIN) while the server still waits for the promised bytes.
        outgoing.write(body, () => outgoing.socket?.end());
      } else {
        outgoing.end(body.length > 0 ? body : undefined);
      }
    });
  }
  return { send };
}

export interface LoggedRequest {
  requestId: string;
  status: number;
}

/** A logger for the API under test that keeps each request's status and each error-level message, by request id. */
export function capturedLog() {
  const requests: LoggedRequest[] = [];
  const errors = new Map<string, string>();
  let wake = () => {};
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const line of String(chunk).split("\n").filter(Boolean)) {
        const entry = JSON.parse(line);
        if (entry.msg === "request") requests.push({ requestId: entry.request_id, status: entry.status });
        if (entry.level >= 50 && entry.request_id) errors.set(entry.request_id, describeLogged(entry));
      }
      wake();
      done();
    },
  });
  return {
    logger: pino({ level: "info" }, sink),
    requests,
    errors,
    /**
     * Resolves true once the API has logged `count` requests, false after `timeoutMs`. A request the client saw
     * answered may still be running on the server (a half-closed body is answered by Node's parser first).
     */
    waitForRequests(count: number, timeoutMs: number): Promise<boolean> {
      if (requests.length >= count) return Promise.resolve(true);
      return new Promise((resolve) => {
        const timer = setTimeout(() => ((wake = () => {}), resolve(false)), timeoutMs);
        wake = () => {
          if (requests.length < count) return;
          clearTimeout(timer);
          wake = () => {};
          resolve(true);
        };
      });
    },
  };
}

const describeLogged = (entry: { msg: string; err?: { type?: string; code?: string; message?: string } }) =>
  entry.err
    ? `${entry.msg}: ${entry.err.type ?? "Error"}${entry.err.code ? ` (${entry.err.code})` : ""}: ${entry.err.message}`
    : entry.msg;

/** Row counts of `tables` in one query (the fuzzer counts around every request). */
export async function countRows(db: Database, tables: readonly string[]): Promise<Record<string, number>> {
  const row = await db.get<Record<string, number | string>>(
    `SELECT ${tables.map((table) => `(SELECT COUNT(*) FROM ${table}) AS ${table}`).join(", ")}`,
  );
  return Object.fromEntries(tables.map((table) => [table, Number(row![table])]));
}
