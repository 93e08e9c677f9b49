import http from "node:http";
import type { AddressInfo } from "node:net";

/** What the fault server does with one request, in order of arrival. */
export type Fault =
  | { status: number; headers?: Record<string, string>; body?: unknown }
  | { reset: true }
  | { delayMs: number; status?: number };

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface FaultServer {
  baseUrl: string;
  requests: RecordedRequest[];
  /** Replace the script: the n-th request gets the n-th fault; past its end, 200 {"ok":true}. */
  script(faults: Fault[]): void;
  close(): Promise<void>;
}

const errorBody = (status: number, code: string) => ({
  error: {
    type: status === 429 ? "rate_limit_error" : status >= 500 ? "api_error" : "invalid_request_error",
    code,
    message: `fault ${status}`,
    request_id: `req_fault${status}`,
  },
});

/** A real HTTP server on loopback that answers each request as scripted: statuses, Retry-After, resets, stalls. */
export async function startFaultServer(): Promise<FaultServer> {
  let faults: Fault[] = [];
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
    req.on("end", () => {
      const fault = faults[requests.length] ?? { status: 200, body: { ok: true } };
      requests.push({ method: req.method!, url: req.url!, headers: req.headers, body });
      const requestId = `req_attempt${requests.length}`;
      if ("reset" in fault) return void req.socket.destroy();
      if ("delayMs" in fault) {
        const timer = setTimeout(
          () => res.writeHead(fault.status ?? 200, { "Content-Type": "application/json" }).end("{}"),
          fault.delayMs,
        );
        res.on("close", () => clearTimeout(timer));
        return;
      }
      const payload =
        fault.body ?? (fault.status < 300 ? { ok: true } : errorBody(fault.status, `code_${fault.status}`));
      res.writeHead(fault.status, { "Content-Type": "application/json", "X-Request-Id": requestId, ...fault.headers });
      res.end(typeof payload === "string" ? payload : JSON.stringify(payload));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/api/v1`,
    requests,
    script(next) {
      faults = next;
      requests.length = 0;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
