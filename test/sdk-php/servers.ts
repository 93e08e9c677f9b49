// The loopback servers the PHP SDK's PHPUnit suite talks to, started by the Node side (npm run test:php and
// test/sdk-php/phpunit.test.ts): the real API on a fresh SQLite database with a seeded test merchant, the
// fault-injecting server behind a small control API (PHP scripts the faults and reads what arrived), and a recorder
// that keeps every request's bytes. The TypeScript SDK sends the shared headless payloads to the recorder first, so
// a PHP test can compare its own bytes with them. `env` is what the PHP side reads with getenv().
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { startTestApi } from "../support/api-server.ts";
import { startFaultServer, type Fault } from "../support/fault-server.ts";
import { QUOTE_LIFETIME_MS } from "../../server/domain/disclosure.ts";
import { ProtectionClient } from "../../packages/sdk/src/index.ts";

export const HEADLESS_PAYLOADS = path.join(import.meta.dirname, "fixtures", "headless-payloads.json");

export interface HeadlessCase {
  name: string;
  operation: "quote" | "confirm" | "decline";
  idempotency_key: string;
  payload: Record<string, unknown>;
}

export interface RecordedBytes {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export interface PhpTestServers {
  env: Record<string, string>;
  /** Every request the recorder received, in order. */
  recorded: RecordedBytes[];
  close(): Promise<void>;
}

export async function startPhpTestServers(): Promise<PhpTestServers> {
  // Webhook URLs are resolved in test mode too: fake DNS, so nothing is looked up on the network.
  const api = await startTestApi({
    dialect: "sqlite",
    transport: "socket", // the PHP SDK calls it from another process
    resolveHost: async () => [{ address: "93.184.216.34", family: 4 }],
  });
  const faults = await startFaultServer();
  const recorded: RecordedBytes[] = [];
  const servers = [
    // POST /script: the fault list (JSON) for the next requests; GET /requests: what the fault server received.
    await listen((request, body, response) => {
      if (request.method === "POST" && request.url === "/script") {
        faults.script(JSON.parse(body.toString("utf8")) as Fault[]);
        return json(response, 200, { ok: true });
      }
      if (request.method === "GET" && request.url === "/requests") return json(response, 200, faults.requests);
      json(response, 404, { error: "unknown control route" });
    }),
    // GET /__recorded: every earlier request, body as base64; anything else is recorded and answered 200.
    await listen((request, body, response) => {
      if (request.method === "GET" && request.url === "/__recorded") {
        const entries = recorded.map(({ body: bytes, ...rest }) => ({
          ...rest,
          body_base64: bytes.toString("base64"),
        }));
        return json(response, 200, entries);
      }
      recorded.push({ method: request.method!, url: request.url!, headers: request.headers, body });
      json(response, 200, { recorded: recorded.length });
    }),
  ];
  const [control, recorder] = servers.map((server) => `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  // A port nothing listens on (bound, then closed): where the PHP tests meet a refused connection.
  const closed = await listen(() => {});
  const closedPort = (closed.address() as AddressInfo).port;
  await new Promise((resolve) => closed.close(resolve));

  const typescript = new ProtectionClient({ apiKey: "mch_test_recorder", baseUrl: `${recorder}/ts/api/v1` });
  for (const { operation, payload, idempotency_key } of headlessCases())
    await typescript.headless[operation](payload as never, idempotency_key);

  return {
    env: {
      PP_API_BASE_URI: api.baseUrl,
      PP_SECRET_KEY: api.merchant.secretKey,
      PP_PUBLISHABLE_KEY: api.merchant.publishableKey,
      PP_PROGRAM_ID: api.merchant.programId,
      PP_MERCHANT_ID: api.merchant.merchantId,
      PP_QUOTE_LIFETIME_MS: String(QUOTE_LIFETIME_MS),
      PP_FAULT_BASE_URI: faults.baseUrl,
      PP_FAULT_CONTROL: control!,
      PP_RECORDER: recorder!,
      PP_CLOSED_BASE_URI: `http://127.0.0.1:${closedPort}/api/v1`,
      PP_HEADLESS_PAYLOADS: HEADLESS_PAYLOADS,
    },
    recorded,
    async close() {
      for (const server of servers) server.closeAllConnections();
      await Promise.all(servers.map((server) => new Promise((resolve) => server.close(resolve))));
      await faults.close();
      await api.close();
    },
  };
}

export function headlessCases(): HeadlessCase[] {
  return (JSON.parse(fs.readFileSync(HEADLESS_PAYLOADS, "utf8")) as { cases: HeadlessCase[] }).cases;
}

async function listen(
  handle: (request: http.IncomingMessage, body: Buffer, response: http.ServerResponse) => void,
): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => handle(request, Buffer.concat(chunks), response));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return server;
}

function json(response: http.ServerResponse, status: number, body: unknown) {
  response.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(body));
}
