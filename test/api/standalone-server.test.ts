// The process `npm run api` starts (node server/main.ts), tested as it ships — not the in-process app: the per-IP and
// edge limits see the socket address, there is no demo page unless DEMO=on, and a body cut short is the client's 400.
import { afterAll, beforeAll, describe, it } from "vitest";
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { createTestDatabase, rowCounts, type TestDatabase } from "../support/databases.ts";
import { apiClient } from "../support/client.ts";
import { assertError } from "../support/api-assertions.ts";
import { startApiProcess, type ApiProcess } from "../support/api-process.ts";
import { assertQuoteEdgeLimitApplies, NO_CLIENT_ADDRESS, untilLimited } from "../support/ip-limits.ts";
import { waitFor } from "../support/wait.ts";
import { createTestMerchant, type NewMerchant } from "../../server/domain/merchants.ts";
import { cryptoRandom } from "../../server/domain/ids.ts";

describe("npm run api (server/main.ts as a process)", () => {
  let database: TestDatabase;
  let merchant: NewMerchant;
  let dataDir: string;
  let server: ApiProcess;

  beforeAll(async () => {
    database = await createTestDatabase("sqlite");
    const services = {
      clock: Date.now,
      random: cryptoRandom,
      settings: { companyName: "Test", portalUrl: "https://portal.example.test" },
    };
    merchant = await database.db.transaction((tx) =>
      createTestMerchant(tx, services, { name: "Process Store", allowedOrigins: [] }),
    );
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "pp-standalone-"));
    server = await startApiProcess({
      DATABASE_URL: database.url,
      DATA_DIR: dataDir,
      ENCRYPTION_KEY: randomBytes(32).toString("base64"),
      LOG_LEVEL: "info",
      WEBHOOK_WORKER: "off",
      EMAIL_WORKER: "off",
    });
  });

  afterAll(async () => {
    await server?.stop();
    await database?.drop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const origin = () => server.baseUrl.replace(/\/api\/v1$/, "");
  const logged = (level: number) => server.lines.filter((line) => Number(line.level) >= level);

  it("the merchant + IP bucket applies: claim listings from one address get 429 once 100/min is spent, and the limiter knows the address", async () => {
    const secret = apiClient(server.baseUrl, merchant.secretKey);
    const { admitted, limited } = await untilLimited(200, () => secret.get(`/merchants/${merchant.merchantId}/claims`));
    assert.ok(
      admitted.length >= 100 && admitted.every((response) => response.status === 200),
      `${admitted.length} admitted`,
    );
    // The merchant + IP bucket and the edge's global per-IP bucket (answered as challenge_required) run out together.
    assertError(limited, { status: 429, code: "challenge_required" });
    assert.match(limited.headers.get("ratelimit")!, /"claims-merchant-ip";r=0;.*"edge-global";r=0;/);
    assert.equal(
      server.lines.some((line) => String(line.msg).includes(NO_CLIENT_ADDRESS)),
      false,
      "per-IP limits are never skipped",
    );
  });

  it("the edge limit on quote applies: quotes from one address get 429 once 50 per 10 s are spent", async () => {
    await assertQuoteEdgeLimitApplies(server.baseUrl, merchant);
  });

  it("without DEMO=on, GET /demo is a 404 and creates no demo merchant", async () => {
    const before = await rowCounts(database.db);
    const response = await fetch(`${origin()}/demo`);
    assert.equal(response.status, 404);
    assert.equal((await response.json()).error.code, "route_not_found");
    assert.deepEqual(await rowCounts(database.db), before);
    assert.equal(await database.db.get("SELECT id FROM merchants WHERE id = 'mer_demo'"), undefined);
  });

  it("the widget script is served beside the API", async () => {
    const response = await fetch(`${origin()}/widget/v1/frame.html`);
    assert.equal(response.status, 200);
    assert.match(await response.text(), /<script src="frame\.js">/);
  });

  it("a body shorter than its Content-Length (the client half-closes) is 400 body_incomplete, logged at info without a stack", async () => {
    const { port } = new URL(server.baseUrl);
    const errorsBefore = logged(40).length;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), "127.0.0.1", () => {
        socket.write(
          [
            "POST /api/v1/offers/decline HTTP/1.1",
            "Host: 127.0.0.1",
            `Authorization: Bearer ${merchant.publishableKey}`,
            "Content-Type: application/json",
            "Idempotency-Key: short-body-000000000001",
            "Content-Length: 100",
            "",
            '{"quoteId',
          ].join("\r\n"),
        );
        socket.end();
      });
      let received = "";
      socket
        .setEncoding("utf8")
        .on("data", (chunk) => (received += chunk))
        .on("end", () => resolve(received))
        .on("error", reject);
    });
    // Node's HTTP parser answers the socket itself once the client half-closes; the API's own answer (400
    // body_incomplete) is what its request log line records.
    assert.match(answer, /^HTTP\/1\.1 400 /);
    await waitForLogLine(
      (line) => line.msg === "request" && line.path === "/api/v1/offers/decline" && line.status === 400,
    );
    assert.equal(logged(40).length, errorsBefore, "nothing at warn or error");
    assert.equal(
      server.lines.some((line) => "err" in line || "stack" in line),
      false,
    );
  });

  const waitForLogLine = (match: (line: Record<string, unknown>) => boolean) =>
    waitFor(() => server.lines.some(match), { timeoutMs: 2_000, what: "the request's log line" });
});
