import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { ResolvedAddress } from "./address-policy.ts";

// One HTTP POST of a webhook: a response (any status) or an error, within the timeout. For live endpoints the
// caller passes the checked address and the connection goes there (DNS is not asked again between check and
// connect); the Host header and TLS server name stay the URL's host.

export interface SendRequest {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  /** Connect to this address instead of resolving the URL's host. */
  address?: ResolvedAddress;
  signal?: AbortSignal;
}

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  /** The start of the receiver's answer (at most EXCERPT_CHARS characters), for the merchant's deliveries log. */
  responseExcerpt: string | null;
}

export const EXCERPT_CHARS = 500;
/** Bytes kept of an answer: enough for EXCERPT_CHARS characters of UTF-8; the rest is read and dropped. */
const EXCERPT_BYTES = EXCERPT_CHARS * 4;

const agents = {
  "http:": new http.Agent({ keepAlive: true, maxSockets: 64 }),
  "https:": new https.Agent({ keepAlive: true, maxSockets: 64 }),
};

const pinned =
  (address: ResolvedAddress): LookupFunction =>
  (_hostname, options, callback) => {
    if (options.all) (callback as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [address]);
    else callback(null, address.address, address.family);
  };

export function send(request: SendRequest): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  return new Promise((resolve) => {
    let settled = false;
    const kept: Buffer[] = [];
    let keptBytes = 0;
    const finish = (statusCode: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      request.signal?.removeEventListener("abort", onAbort);
      const excerpt = keptBytes === 0 ? null : Buffer.concat(kept).toString("utf8").slice(0, EXCERPT_CHARS);
      resolve({ statusCode, error, durationMs: elapsed(), responseExcerpt: excerpt });
    };
    const url = new URL(request.url);
    const transport = url.protocol === "https:" ? https : http;
    const req = transport.request(url, {
      method: "POST",
      agent: agents[url.protocol as "http:" | "https:"],
      headers: { ...request.headers, "Content-Length": String(Buffer.byteLength(request.body)) },
      ...(request.address ? { lookup: pinned(request.address) } : {}),
    });
    const timer = setTimeout(() => {
      finish(null, `timed out after ${request.timeoutMs} ms`);
      req.destroy();
    }, request.timeoutMs);
    const onAbort = () => {
      finish(null, "aborted (worker shutting down)");
      req.destroy();
    };
    request.signal?.addEventListener("abort", onAbort);
    req.on("response", (res) => {
      res.on("data", (chunk: Buffer) => {
        if (keptBytes >= EXCERPT_BYTES) return;
        kept.push(chunk.subarray(0, EXCERPT_BYTES - keptBytes));
        keptBytes += Math.min(chunk.length, EXCERPT_BYTES - keptBytes);
      });
      res.on("end", () => finish(res.statusCode ?? null, null));
      res.on("error", () => finish(res.statusCode ?? null, null));
    });
    req.on("error", (error: NodeJS.ErrnoException) =>
      finish(null, error.code ? `${error.code}: ${error.message}` : error.message),
    );
    req.end(request.body);
  });
}
